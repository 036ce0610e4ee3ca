/**
 * The pod tracker with a big cluster: heap held by its records after a full list of `pods`
 * synthetic pods (5% needing attention), how long the list and a storm of MODIFIED events take,
 * and, for comparison, the heap the same pods take as objects.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { V1Pod } from '@kubernetes/client-node';
import { PodTracker, slimPod } from '../kube/pods/pods.js';

function gcFunction(): () => void {
  if (global.gc) return global.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

const FAULTS = ['CrashLoopBackOff', 'ImagePullBackOff', 'Unschedulable', 'NotReady'] as const;

type Fault = (typeof FAULTS)[number];

/** The status of synthetic pod `i`: running and ready, or showing its fault. */
function syntheticStatus(i: number, fault: Fault | undefined, generation: number, now: Date): V1Pod['status'] {
  const pending = fault === 'Unschedulable' || fault === 'ImagePullBackOff';
  const ready = fault === undefined;
  return {
    phase: pending ? 'Pending' : 'Running',
    conditions: [
      {
        type: 'PodScheduled',
        status: fault === 'Unschedulable' ? 'False' : 'True',
        ...(fault === 'Unschedulable' ? { reason: 'Unschedulable', message: '0/1000 nodes are available: 1000 Insufficient cpu.' } : {}),
      },
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: ready ? 'True' : 'False' },
      { type: 'ContainersReady', status: ready ? 'True' : 'False' },
    ],
    hostIP: `10.0.${Math.floor(i / 250) % 256}.${i % 250}`,
    podIP: `10.244.${Math.floor(i / 250) % 256}.${i % 250}`,
    containerStatuses:
      fault === 'Unschedulable'
        ? undefined
        : [
            {
              name: 'app',
              image: `registry.example.com/team/app:${generation}`,
              imageID: 'registry.example.com/team/app@sha256:0123456789abcdef',
              ready,
              restartCount: fault === 'CrashLoopBackOff' ? 5 + generation : 0,
              started: ready,
              state:
                fault === 'CrashLoopBackOff' || fault === 'ImagePullBackOff'
                  ? { waiting: { reason: fault, message: 'back-off' } }
                  : { running: { startedAt: now } },
            },
          ],
  };
}

/** A pod as a list returns it (labels, owner, managed fields, one container), 1 in 20 with a fault. */
export function syntheticPod(i: number, generation = 0): V1Pod {
  const ns = `team-${i % 200}`;
  const name = `app-${Math.floor(i / 10)}-${(i * 2654435761) % 100000}`;
  const fault = i % 20 === 7 ? FAULTS[Math.floor(i / 20) % FAULTS.length] : undefined;
  const now = new Date(1_714_557_600_000 + i * 1000);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i + generation),
      creationTimestamp: now,
      labels: { app: `app-${Math.floor(i / 10)}`, 'pod-template-hash': 'abcdef1234', team: ns },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `app-${Math.floor(i / 10)}-abcdef1234`,
          uid: `rs-${Math.floor(i / 10)}`,
          controller: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: now,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': {}, 'f:spec': {} },
        },
      ],
    },
    spec: {
      nodeName: fault === 'Unschedulable' ? undefined : `node-${i % 1000}`,
      containers: [
        {
          name: 'app',
          image: `registry.example.com/team/app:${generation}`,
          env: [{ name: 'MODE', value: 'production' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    },
    status: syntheticStatus(i, fault, generation, now),
  };
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function benchPodTracker(pods: number): void {
  const gc = gcFunction();
  gc();
  const base = process.memoryUsage().heapUsed;

  // A full list, page by page as listPaged does: every page of 500 is reduced to slim pods at
  // once. Only the tracker's work is timed, not making the synthetic pods.
  let listMs = 0;
  const tracker = new PodTracker();
  const slim: V1Pod[] = [];
  for (let from = 0; from < pods; from += 500) {
    const page: V1Pod[] = [];
    for (let i = from; i < Math.min(pods, from + 500); i++) page.push(syntheticPod(i));
    const t = performance.now();
    for (const p of page) slim.push(slimPod(p));
    listMs += performance.now() - t;
  }
  let started = performance.now();
  tracker.reset(slim);
  slim.length = 0;
  let summary = tracker.summary();
  listMs += performance.now() - started;
  gc();
  const held = process.memoryUsage().heapUsed - base;

  // A storm: every pod MODIFIED once, a summary every 1,000 events (about one per 50 ms burst).
  let stormMs = 0;
  let summaries = 0;
  for (let from = 0; from < pods; from += 1000) {
    const burst: V1Pod[] = [];
    for (let i = from; i < Math.min(pods, from + 1000); i++) burst.push(syntheticPod(i, 1));
    started = performance.now();
    for (const p of burst) tracker.apply('MODIFIED', p);
    summary = tracker.summary();
    summaries++;
    stormMs += performance.now() - started;
  }

  // For comparison: the same pods kept as objects.
  gc();
  const before = process.memoryUsage().heapUsed;
  const objects: V1Pod[] = [];
  for (let i = 0; i < pods; i++) objects.push(syntheticPod(i));
  gc();
  const asObjects = process.memoryUsage().heapUsed - before;

  console.log(
    `pods: ${pods} pods listed into the tracker in ${listMs.toFixed(0)} ms; ${summary.problemCount} need attention, ${summary.problems.length} published`,
  );
  console.log(
    `pods: ${pods} MODIFIED events in ${stormMs.toFixed(0)} ms (${((pods / stormMs) * 1000).toFixed(0)}/s), ${summaries} summaries`,
  );
  console.log(
    `pods: the tracker holds ~${mib(held)} of heap (${(held / pods) | 0} B/pod); the same pods as objects: ~${mib(asObjects)} (${(asObjects / objects.length) | 0} B/pod)`,
  );
  if (tracker.size !== pods) throw new Error(`tracker lost pods: ${tracker.size}`);
}

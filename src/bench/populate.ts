/** Filling sandbox clusters with the objects the figures need: namespaces, Nodes, pause pods. */
import {
  CoordinationV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
  type KubeConfig,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import { makeClient, statusCode } from '../kube/transport/client.js';
import { progress, runPool, sleep, waitFor } from './util.js';

export const BENCH_NAMESPACE = 'fleetdeck-bench';
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.9';
/** The annotation by which the sandbox's simulated kubelet recognises its nodes. */
export const SANDBOX_NODE_ANNOTATION = 'fleetdeck.io/sandbox-node';

const mergePatchOptions = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export function core(kc: KubeConfig): CoreV1Api {
  return makeClient(kc, CoreV1Api, 60_000);
}

export async function ensureNamespace(api: CoreV1Api, name: string): Promise<void> {
  try {
    await api.createNamespace({ body: { metadata: { name } } });
  } catch (err) {
    if (statusCode(err) !== 409) throw err;
    return;
  }
  await tokenMinted(api, name);
}

/**
 * Waits (5 s at most) until the new namespace's `default` ServiceAccount has its token Secret:
 * until then a cluster with legacy service-account tokens (Kubernetes before 1.24, the
 * sandbox's) refuses pods. Newer clusters mint no such Secret; the wait then just ends.
 */
async function tokenMinted(api: CoreV1Api, namespace: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const sa = await api.readNamespacedServiceAccount({ name: 'default', namespace }).catch(() => undefined);
    if ((sa?.secrets?.length ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Names of the nodes the sandbox's simulated kubelet runs (it gives their pods Running status). */
export async function sandboxNodeNames(api: CoreV1Api): Promise<string[]> {
  const nodes = await api.listNode();
  return nodes.items.filter((n) => n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION]).map((n) => n.metadata?.name ?? '');
}

/** A pause pod bound to `nodeName` (the scheduler is bypassed); tolerates every taint, so no eviction touches it. */
export function pausePod(name: string, nodeName: string): V1Pod {
  return {
    metadata: { name, labels: { app: 'fleetdeck-bench' } },
    spec: {
      nodeName,
      containers: [{ name: 'pause', image: PAUSE_IMAGE }],
      tolerations: [{ operator: 'Exists' }],
      terminationGracePeriodSeconds: 0,
    },
  };
}

/** A Node object that no kubelet runs, Ready at creation (POST /nodes keeps the status). */
export function staticNode(name: string, zone: string): V1Node {
  const now = new Date();
  return {
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': zone,
        'node-role.kubernetes.io/worker': '',
      },
    },
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'bench node', lastHeartbeatTime: now, lastTransitionTime: now },
      ],
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      nodeInfo: {
        machineID: name,
        systemUUID: name,
        bootID: name,
        kernelVersion: 'bench',
        osImage: 'bench',
        containerRuntimeVersion: 'bench://1.0',
        kubeletVersion: 'v1.20.2',
        kubeProxyVersion: 'v1.20.2',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

/**
 * One create: an object that exists already (409) is fine; a server too busy to answer (429,
 * 5xx: e.g. "resource quota evaluation timed out" on a loaded machine) is asked again, up to 5
 * times, a second apart.
 */
const ignoreConflict = async (create: () => Promise<unknown>) => {
  for (let attempt = 1; ; attempt++) {
    try {
      await create();
      return;
    } catch (err) {
      const code = statusCode(err) ?? 0;
      if (code === 409) return;
      if (attempt >= 5 || (code !== 429 && code < 500)) throw err;
      await sleep(1000);
    }
  }
};

export interface CreateOptions {
  concurrency: number;
  /** performance.now() value after which creation stops with an error. */
  deadline: number;
  label: string;
  signal?: AbortSignal;
}

/** Creates `count` pause pods `<prefix>-<i>` in `namespace`, bound round-robin to `nodes`. */
export async function createPods(
  api: CoreV1Api,
  namespace: string,
  prefix: string,
  count: number,
  nodes: readonly string[],
  opts: CreateOptions,
): Promise<void> {
  if (nodes.length === 0) throw new Error(`${opts.label}: no node to bind pods to`);
  const t0 = performance.now();
  await runPool(
    count,
    opts.concurrency,
    (i) => ignoreConflict(() => api.createNamespacedPod({ namespace, body: pausePod(`${prefix}-${i}`, nodes[i % nodes.length]!) })),
    {
      deadline: opts.deadline,
      what: `${opts.label}: creating pods`,
      onProgress: (done) => progress(`${opts.label}: ${done}/${count} pods created`),
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
  );
  const s = (performance.now() - t0) / 1000;
  progress(`${opts.label}: ${count} pods created in ${s.toFixed(0)} s (${(count / s).toFixed(0)}/s)`);
}

/** Creates `count` static Nodes `<prefix>-<i>` over three zones. */
export async function createNodes(api: CoreV1Api, prefix: string, count: number, opts: CreateOptions): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i + 1}`);
  const zones = ['zone-a', 'zone-b', 'zone-c'];
  await runPool(count, opts.concurrency, (i) => ignoreConflict(() => api.createNode({ body: staticNode(names[i]!, zones[i % 3]!) })), {
    deadline: opts.deadline,
    what: `${opts.label}: creating nodes`,
    onProgress: (done) => progress(`${opts.label}: ${done}/${count} nodes created`),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return names;
}

/** Waits until every pod in `namespace` is Running (the simulated kubelet marks them). */
export async function waitPodsRunning(
  api: CoreV1Api,
  namespace: string,
  expected: number,
  label: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  let left = expected;
  await waitFor(
    `${label}: ${expected} pods Running`,
    async () => {
      const list = await api.listNamespacedPod({ namespace, fieldSelector: 'status.phase!=Running' });
      left = list.items.length;
      return left === 0;
    },
    {
      timeoutMs,
      intervalMs: 2000,
      onWait: () => progress(`${label}: ${left} of ${expected} pods not Running yet`),
      ...(signal ? { signal } : {}),
    },
  );
}

/**
 * Keeps a Lease in kube-node-lease fresh for nodes no kubelet runs, so the node lifecycle
 * controller keeps them Ready (and leaves their pods alone). Lease renewals do not touch the
 * Node objects. Returns a function that stops the renewals.
 */
export function keepNodesAlive(kc: KubeConfig, nodes: readonly { name: string; uid: string }[], everyMs = 10_000): () => void {
  const api = makeClient(kc, CoordinationV1Api, 10_000);
  const namespace = 'kube-node-lease';
  const renew = async () => {
    for (const n of nodes) {
      const spec = { holderIdentity: n.name, leaseDurationSeconds: 40, renewTime: new V1MicroTime() };
      try {
        await api.patchNamespacedLease({ name: n.name, namespace, body: { spec } }, mergePatchOptions());
      } catch (err) {
        if (statusCode(err) !== 404) continue;
        await ignoreConflict(() =>
          api.createNamespacedLease({
            namespace,
            body: { metadata: { name: n.name, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: n.uid }] }, spec },
          }),
        ).catch(() => {});
      }
    }
  };
  void renew();
  const timer = setInterval(() => void renew(), everyMs);
  return () => clearInterval(timer);
}

/**
 * Which pods of a node a drain evicts, deletes, ignores or refuses: kubectl's drain filter
 * pipeline (k8s.io/kubectl/pkg/drain, filters.go) as named pure filters, in kubectl's order.
 */
import type { PdbRef } from '../../kube/pods/pdb.js';
import type { PodObject } from '../../kube/pods/pod-ops.js';
import { bytes, cpuMilli } from '../../kube/api/quantity.js';

/** The fields of a pod the drain reads. */
export type DrainPod = PodObject;

export type DrainAction =
  | 'evict'
  | 'delete'
  | 'ignored-daemonset'
  | 'skipped-mirror'
  | 'needs-force'
  | 'needs-delete-emptydir-data'
  | 'blocked-pdb';

export interface PodRequests {
  cpuMilli: number;
  memoryBytes: number;
}

export interface PodClassification {
  namespace: string;
  name: string;
  uid: string;
  action: DrainAction;
  /** One line: why this action (and the flag that allowed it, if one did). */
  reason: string;
  requests: PodRequests;
  /** With `blocked-pdb`: the budget that blocks the eviction now. */
  pdb?: PdbRef;
}

export interface DrainFlags {
  /** Evict pods that declare no controller, and orphaned DaemonSet pods (kubectl's --force). */
  force: boolean;
  /** Evict pods with emptyDir volumes, whose data is lost (kubectl's --delete-emptydir-data). */
  deleteEmptyDirData: boolean;
}

/** What the drain looked up about a pod's controller. */
export interface OwnerInfo {
  /** For a pod controlled by a DaemonSet: whether that DaemonSet exists (assumed when absent). */
  daemonSet?: 'exists' | 'missing';
}

/** A filter's verdict: the pod goes on to the next filter (maybe with a warning) or stops here. */
export type FilterVerdict = { pass: true; warning?: string } | { pass: false; action: DrainAction; reason: string };

/** One step of the pipeline. */
export type PodFilter = (pod: DrainPod, owner: OwnerInfo, flags: DrainFlags) => FilterVerdict;

export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const PASS: FilterVerdict = { pass: true };

/** The pod's controller reference (the owner with `controller: true`), as metav1.GetControllerOf. */
export function controllerOf(pod: DrainPod): { kind: string; name: string } | undefined {
  return pod.metadata?.ownerReferences?.find((o) => o.controller === true);
}

/** Succeeded or Failed: nothing runs any more, so nothing is disrupted. */
export function isFinished(pod: DrainPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

export function hasEmptyDir(pod: DrainPod): boolean {
  return (pod.spec?.volumes ?? []).some((v) => v.emptyDir !== undefined && v.emptyDir !== null);
}

/**
 * DaemonSet pods stay (the DaemonSet controller ignores cordons and would recreate them at
 * once) — as kubectl with --ignore-daemonsets. A finished one is removed like any finished pod.
 * An orphaned DaemonSet pod (its DaemonSet is gone) is an error unless --force, as in kubectl.
 */
export const daemonSetFilter: PodFilter = (pod, owner, flags) => {
  const ref = controllerOf(pod);
  if (ref?.kind !== 'DaemonSet') return PASS;
  if (isFinished(pod)) return PASS;
  const ns = pod.metadata?.namespace ?? '';
  if (owner.daemonSet === 'missing') {
    if (flags.force) return { pass: true, warning: `orphaned: DaemonSet ${ns}/${ref.name} not found (--force)` };
    return { pass: false, action: 'needs-force', reason: `orphaned: DaemonSet ${ns}/${ref.name} not found` };
  }
  return { pass: false, action: 'ignored-daemonset', reason: `managed by DaemonSet ${ref.name}` };
};

/** Mirror pods are the kubelet's static pods: the API server cannot delete them. */
export const mirrorPodFilter: PodFilter = (pod) => {
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined) return PASS;
  return { pass: false, action: 'skipped-mirror', reason: 'mirror pod of a static pod (managed by the kubelet, not the API)' };
};

/** emptyDir data is lost with the pod: only with --delete-emptydir-data (finished pods need nothing). */
export const localStorageFilter: PodFilter = (pod, _owner, flags) => {
  if (!hasEmptyDir(pod) || isFinished(pod)) return PASS;
  if (flags.deleteEmptyDirData) return { pass: true, warning: 'emptyDir data deleted (--delete-emptydir-data)' };
  return { pass: false, action: 'needs-delete-emptydir-data', reason: 'uses emptyDir: its local data is lost with the pod' };
};

/** A pod no controller recreates is gone for good once evicted: only with --force. */
export const unreplicatedFilter: PodFilter = (pod, _owner, flags) => {
  if (isFinished(pod)) return PASS;
  if (controllerOf(pod)) return PASS;
  if (flags.force) return { pass: true, warning: 'declares no controller, not recreated (--force)' };
  return { pass: false, action: 'needs-force', reason: 'declares no controller: nothing recreates it once evicted' };
};

/** A finished pod (Succeeded, Failed) disrupts nothing: it is deleted, not evicted. */
export const finishedFilter: PodFilter = (pod) => {
  if (!isFinished(pod)) return PASS;
  return { pass: false, action: 'delete', reason: `finished (${pod.status?.phase}): deleted, no disruption budget applies` };
};

/** kubectl's order: DaemonSet, mirror, local storage, unreplicated, then finished; the first filter that stops a pod decides. */
export const DRAIN_FILTERS: readonly { name: string; filter: PodFilter }[] = [
  { name: 'daemonSet', filter: daemonSetFilter },
  { name: 'mirrorPod', filter: mirrorPodFilter },
  { name: 'localStorage', filter: localStorageFilter },
  { name: 'unreplicated', filter: unreplicatedFilter },
  { name: 'finished', filter: finishedFilter },
];

/**
 * Effective requests as the scheduler counts them: the larger of the containers' sum and the
 * largest init container, plus the pod overhead.
 */
export function podRequests(pod: DrainPod): PodRequests {
  let cpu = 0;
  let mem = 0;
  for (const c of pod.spec?.containers ?? []) {
    cpu += cpuMilli(c.resources?.requests?.cpu);
    mem += bytes(c.resources?.requests?.memory);
  }
  for (const c of pod.spec?.initContainers ?? []) {
    cpu = Math.max(cpu, cpuMilli(c.resources?.requests?.cpu));
    mem = Math.max(mem, bytes(c.resources?.requests?.memory));
  }
  cpu += cpuMilli(pod.spec?.overhead?.cpu);
  mem += bytes(pod.spec?.overhead?.memory);
  return { cpuMilli: cpu, memoryBytes: mem };
}

/** Runs the pipeline over one pod. Pods that pass every filter are evicted. */
export function classifyPod(pod: DrainPod, owner: OwnerInfo, flags: DrainFlags): PodClassification {
  const base = {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    requests: podRequests(pod),
  };
  const warnings: string[] = [];
  for (const { filter } of DRAIN_FILTERS) {
    const v = filter(pod, owner, flags);
    if (!v.pass) return { ...base, action: v.action, reason: v.reason };
    if (v.warning) warnings.push(v.warning);
  }
  const ref = controllerOf(pod);
  const why = ref ? `managed by ${ref.kind} ${ref.name}` : 'no controller';
  return { ...base, action: 'evict', reason: [why, ...warnings].join('; ') };
}

/** Every pod of a node through the pipeline; `owners` by pod uid. */
export function classifyPods(pods: readonly DrainPod[], owners: ReadonlyMap<string, OwnerInfo>, flags: DrainFlags): PodClassification[] {
  return pods.map((p) => classifyPod(p, owners.get(p.metadata?.uid ?? '') ?? {}, flags));
}

/** The pods that stop a drain before it starts, grouped by the flag each needs. */
export function refusals(
  classes: readonly PodClassification[],
): { flag: '--force' | '--delete-emptydir-data'; pods: PodClassification[] }[] {
  const force = classes.filter((c) => c.action === 'needs-force');
  const emptyDir = classes.filter((c) => c.action === 'needs-delete-emptydir-data');
  const out: { flag: '--force' | '--delete-emptydir-data'; pods: PodClassification[] }[] = [];
  if (force.length) out.push({ flag: '--force', pods: force });
  if (emptyDir.length) out.push({ flag: '--delete-emptydir-data', pods: emptyDir });
  return out;
}

/** "cannot drain node n1: needs --force for a/x (…); needs --delete-emptydir-data for a/y (…)". */
export function refusalMessage(node: string, classes: readonly PodClassification[]): string | undefined {
  const groups = refusals(classes);
  if (groups.length === 0) return undefined;
  const parts = groups.map((g) => `needs ${g.flag} for ${g.pods.map((p) => `${p.namespace}/${p.name} (${p.reason})`).join(', ')}`);
  return `cannot drain node ${node}: ${parts.join('; ')}`;
}

/**
 * The decisions of a drain, as pure functions (no I/O): which pods of a node are evicted,
 * deleted, ignored or refused — kubectl's drain filter pipeline (k8s.io/kubectl/pkg/drain,
 * filters.go), in kubectl's order — which of them a PodDisruptionBudget blocks right now, and
 * whether the other nodes have room for what is evicted.
 */
import { bytes, cpuMilli, formatBytes, formatCpu } from '../kube/quantity.js';

/** The fields of a pod the drain reads; fits client-node's V1Pod and the JSON the server sends. */
export interface DrainPod {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean; apiVersion?: string; uid?: string }[];
    deletionTimestamp?: Date | string | null;
  };
  spec?: {
    nodeName?: string;
    volumes?: { name: string; emptyDir?: object | null }[];
    containers?: { resources?: { requests?: Record<string, string | number> } }[];
    initContainers?: { resources?: { requests?: Record<string, string | number> } }[];
    overhead?: Record<string, string | number>;
  };
  status?: { phase?: string };
}

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

export interface PdbRef {
  namespace: string;
  name: string;
  disruptionsAllowed: number;
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
  if (!ref || ref.kind !== 'DaemonSet') return PASS;
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

/** kubectl's order: DaemonSet, mirror, local storage, unreplicated; the first filter that stops a pod decides. */
export const DRAIN_FILTERS: readonly { name: string; filter: PodFilter }[] = [
  { name: 'daemonSet', filter: daemonSetFilter },
  { name: 'mirrorPod', filter: mirrorPodFilter },
  { name: 'localStorage', filter: localStorageFilter },
  { name: 'unreplicated', filter: unreplicatedFilter },
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

/** Runs the pipeline over one pod. Pods that pass every filter are evicted, finished ones deleted. */
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
  if (isFinished(pod)) {
    return { ...base, action: 'delete', reason: `finished (${pod.status?.phase}): deleted, no disruption budget applies` };
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
export function refusals(classes: readonly PodClassification[]): { flag: '--force' | '--delete-emptydir-data'; pods: PodClassification[] }[] {
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

// ---------------------------------------------------------------------------------------------
// Label selectors

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[] | null;
}

export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

/** Why a selector is invalid (as metav1.LabelSelectorAsSelector would refuse it), or undefined. */
export function selectorError(selector: LabelSelector): string | undefined {
  for (const r of selector.matchExpressions ?? []) {
    const n = r.values?.length ?? 0;
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (n === 0) return `${r.key} ${r.operator}: values must be non-empty`;
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (n > 0) return `${r.key} ${r.operator}: values must be empty`;
        break;
      default:
        return `${r.key}: operator "${r.operator}" is not a label selector operator`;
    }
  }
  return undefined;
}

/**
 * metav1.LabelSelector semantics: a null selector matches nothing, an empty one everything;
 * matchLabels and every matchExpression must all hold (In, NotIn — also true when the label is
 * absent —, Exists, DoesNotExist). An invalid selector matches nothing.
 */
export function labelSelectorMatches(selector: LabelSelector | null | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (!selector) return false;
  if (selectorError(selector)) return false;
  const l = labels ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (!has(k) || l[k] !== v) return false;
  for (const r of selector.matchExpressions ?? []) {
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
        if (!has(r.key) || !values.includes(l[r.key]!)) return false;
        break;
      case 'NotIn':
        if (has(r.key) && values.includes(l[r.key]!)) return false;
        break;
      case 'Exists':
        if (!has(r.key)) return false;
        break;
      case 'DoesNotExist':
        if (has(r.key)) return false;
        break;
    }
  }
  return true;
}

function isEmptySelector(s: LabelSelector): boolean {
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

// ---------------------------------------------------------------------------------------------
// PodDisruptionBudgets

/** A PDB as read from the server (policy/v1 or policy/v1beta1 JSON). */
export interface PdbObject {
  apiVersion?: string;
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { selector?: LabelSelector | null };
  status?: { disruptionsAllowed?: number; observedGeneration?: number };
}

/**
 * Whether a PDB covers a pod, as the eviction API decides it: same namespace, selector matches.
 * In policy/v1beta1 an empty selector matches no pod (in policy/v1 every pod of the namespace):
 * `apiVersion` is the version the PDB was read with.
 */
export function pdbSelectsPod(pdb: PdbObject, pod: DrainPod, apiVersion = pdb.apiVersion ?? 'policy/v1'): boolean {
  if ((pdb.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return false;
  const sel = pdb.spec?.selector;
  if (!sel) return false;
  if (isEmptySelector(sel) && apiVersion === 'policy/v1beta1') return false;
  return labelSelectorMatches(sel, pod.metadata?.labels);
}

export function pdbRef(pdb: PdbObject): PdbRef {
  return { namespace: pdb.metadata?.namespace ?? '', name: pdb.metadata?.name ?? '', disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0 };
}

/** Whether the eviction API checks budgets for this pod: not for pods that are not running (Pending, finished) or already terminating. */
export function budgetApplies(pod: DrainPod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Pending' || phase === 'Succeeded' || phase === 'Failed') return false;
  return !pod.metadata?.deletionTimestamp;
}

/**
 * Marks the pods a PDB would block if they were evicted right now: the eviction API allows a
 * budget's `disruptionsAllowed` evictions, then answers 429 until the controller recounts
 * healthy pods. The first pods (in the given order) use up the allowance; the rest are
 * `blocked-pdb`. A pod covered by more than one PDB is blocked too (the eviction API refuses
 * it), and so is one whose PDB the disruption controller has not processed yet.
 */
export function markPdbBlocked(classes: readonly PodClassification[], pods: readonly DrainPod[], pdbs: readonly PdbObject[]): PodClassification[] {
  const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
  const left = new Map<PdbObject, number>(pdbs.map((p) => [p, Math.max(0, p.status?.disruptionsAllowed ?? 0)]));
  return classes.map((c) => {
    if (c.action !== 'evict') return c;
    const pod = byUid.get(c.uid);
    if (!pod || !budgetApplies(pod)) return c;
    const matching = pdbs.filter((b) => pdbSelectsPod(b, pod));
    if (matching.length === 0) return c;
    if (matching.length > 1) {
      const names = matching.map((b) => b.metadata?.name).join(', ');
      return { ...c, action: 'blocked-pdb', reason: `covered by ${matching.length} PodDisruptionBudgets (${names}); the eviction API refuses such pods`, pdb: pdbRef(matching[0]!) };
    }
    const pdb = matching[0]!;
    const ref = pdbRef(pdb);
    const gen = pdb.metadata?.generation;
    if (gen !== undefined && (pdb.status?.observedGeneration ?? 0) < gen) {
      return { ...c, action: 'blocked-pdb', reason: `PodDisruptionBudget ${ref.name} is still being processed by the disruption controller`, pdb: ref };
    }
    const n = left.get(pdb) ?? 0;
    if (n > 0) {
      left.set(pdb, n - 1);
      return c;
    }
    const why =
      ref.disruptionsAllowed === 0
        ? `PodDisruptionBudget ${ref.name} allows 0 disruptions now`
        : `PodDisruptionBudget ${ref.name} allows ${ref.disruptionsAllowed} disruption(s) now, used by other pods of this node`;
    return { ...c, action: 'blocked-pdb', reason: why, pdb: ref };
  });
}

// ---------------------------------------------------------------------------------------------
// Room on the other nodes

export interface NodeRoom {
  name: string;
  ready: boolean;
  unschedulable: boolean;
  allocatable: { cpuMilli: number; memoryBytes: number; pods: number };
  /** Sum of the requests of the (not finished) pods already bound to the node, and their count. */
  requested: { cpuMilli: number; memoryBytes: number; pods: number };
}

export interface RoomCheck {
  fits: boolean;
  detail: string;
}

/**
 * Would the evicted pods' requests fit on the remaining nodes? Sums per resource (CPU, memory,
 * pod slots) over the schedulable, Ready nodes not being drained: their allocatable minus what
 * their pods already request. A sum, not a scheduling simulation: node selectors, affinity,
 * taints and how the free room is split between nodes are not considered — the detail says so.
 */
export function roomCheck(evicted: readonly PodRequests[], nodes: readonly NodeRoom[], draining: ReadonlySet<string>): RoomCheck {
  const need = { cpuMilli: 0, memoryBytes: 0, pods: evicted.length };
  for (const r of evicted) {
    need.cpuMilli += r.cpuMilli;
    need.memoryBytes += r.memoryBytes;
  }
  const targets = nodes.filter((n) => !draining.has(n.name) && n.ready && !n.unschedulable);
  const free = { cpuMilli: 0, memoryBytes: 0, pods: 0 };
  for (const n of targets) {
    free.cpuMilli += Math.max(0, n.allocatable.cpuMilli - n.requested.cpuMilli);
    free.memoryBytes += Math.max(0, n.allocatable.memoryBytes - n.requested.memoryBytes);
    free.pods += Math.max(0, n.allocatable.pods - n.requested.pods);
  }
  const caveat = 'sum per resource over the nodes; selectors, affinity, taints and per-node fragmentation not considered';
  if (need.pods === 0) return { fits: true, detail: 'nothing to evict' };
  if (targets.length === 0) {
    return { fits: false, detail: `no schedulable Ready node left for ${need.pods} pods (${nodes.length - targets.length} nodes draining, cordoned or not Ready)` };
  }
  const short: string[] = [];
  if (need.cpuMilli > free.cpuMilli) short.push(`CPU ${formatCpu(need.cpuMilli)} requested, ${formatCpu(free.cpuMilli)} free`);
  if (need.memoryBytes > free.memoryBytes) short.push(`memory ${formatBytes(need.memoryBytes)} requested, ${formatBytes(free.memoryBytes)} free`);
  if (need.pods > free.pods) short.push(`${need.pods} pods, ${free.pods} pod slots free`);
  const on = `on ${targets.length} schedulable Ready node${targets.length === 1 ? '' : 's'}`;
  if (short.length) return { fits: false, detail: `does not fit ${on}: ${short.join('; ')} (${caveat})` };
  return {
    fits: true,
    detail: `fits ${on}: CPU ${formatCpu(need.cpuMilli)} of ${formatCpu(free.cpuMilli)} free, memory ${formatBytes(need.memoryBytes)} of ${formatBytes(free.memoryBytes)} free, ${need.pods} of ${free.pods} pod slots (${caveat})`,
  };
}

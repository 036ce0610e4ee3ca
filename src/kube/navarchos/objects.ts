/**
 * Návarchos (github.com/pusher/navarchos): its NodeRollouts and the NodeReplacements its
 * controller creates for them, as the server sends them and reduced to small summaries, and the
 * NodeRollout object a request becomes. Both kinds are cluster-scoped, group
 * navarchos.pusher.com, version v1alpha1. Watching them live: watch.ts; creating a
 * NodeRollout (the controller does the work): create.ts.
 */
import { describeSelector, parseLabelSelector, type LabelSelector } from '../api/selector.js';

export const NAVARCHOS_GROUP = 'navarchos.pusher.com';
export const NAVARCHOS_VERSION = 'v1alpha1';
export const NAVARCHOS_API_VERSION = `${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}`;
/** The CRDs by the names the API server knows them. */
export const NAVARCHOS_CRDS = {
  rollouts: `noderollouts.${NAVARCHOS_GROUP}`,
  replacements: `nodereplacements.${NAVARCHOS_GROUP}`,
} as const;
export const ROLLOUTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'noderollouts' } as const;
export const REPLACEMENTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'nodereplacements' } as const;

// ---------------------------------------------------------------------------------------------
// The objects, as the server sends them (Návarchos' v1alpha1 types)

/** Návarchos' ReplacementSpec. Older revisions of its API had `priority` beside it instead: both are read. */
interface WithPriority {
  replacement?: { priority?: number | null } | null;
  priority?: number | null;
}

export interface PodReason {
  name: string;
  reason: string;
}

type Time = string | Date | null | undefined;

interface ObjectMeta {
  name?: string;
  generateName?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: Time;
  ownerReferences?: { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean }[];
}

export interface NodeRolloutObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: {
    nodeSelectors?: (LabelSelector & WithPriority)[];
    nodeNames?: ({ name: string } & WithPriority)[];
  };
  status?: {
    phase?: string;
    replacementsCreated?: string[];
    replacementsCreatedCount?: number;
    replacementsCompleted?: string[];
    replacementsCompletedCount?: number;
    completionTimestamp?: Time;
  };
}

export interface NodeReplacementObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { nodeName?: string; nodeUID?: string } & WithPriority;
  status?: {
    phase?: string;
    nodePods?: string[];
    nodePodsCount?: number;
    evictedPods?: string[];
    evictedPodsCount?: number;
    ignoredPods?: PodReason[];
    ignoredPodsCount?: number;
    failedPods?: PodReason[];
    failedPodsCount?: number;
    completionTimestamp?: Time;
  };
}

// ---------------------------------------------------------------------------------------------
// Summaries

/** One entry of a rollout's selection: a label selector (kubectl syntax) or a node name, with its priority. */
export interface RolloutTarget {
  kind: 'selector' | 'node';
  /** `kubernetes.io/role=worker`, `zone in (a,b)`; `(every node)` for an empty selector; or a node name. */
  target: string;
  priority: number;
}

export interface NodeRolloutSummary {
  name: string;
  /** New | InProgress | Completed; `New` also before the controller wrote any status. */
  phase: string;
  /** Node names first, then selectors; each in spec order. */
  targets: RolloutTarget[];
  /** The distinct priorities, highest first (the order the controller replaces in). */
  priorities: number[];
  replacementsCreated: number;
  replacementsCompleted: number;
  createdAt?: string;
  completionTimestamp?: string;
}

export interface NodeReplacementSummary {
  name: string;
  nodeName: string;
  priority: number;
  /** New | InProgress | Completed | Failed; `New` also before the controller wrote any status. */
  phase: string;
  /** The NodeRollout that created it (its controller owner), if any. */
  rollout?: string;
  /** Pods on the node when it was cordoned, evicted so far, ignored (DaemonSet pods…), failing to evict now. */
  nodePods: number;
  evictedPods: number;
  ignoredPods: number;
  failedPods: number;
  /** The failing pods with the reason the controller recorded (a PodDisruptionBudget, …). */
  failed: PodReason[];
  createdAt?: string;
  completionTimestamp?: string;
}

export interface NavarchosState {
  /** The NodeRollout CRD exists and is established. */
  installed: boolean;
  /** The answer is in: the CRDs are known present or absent and, when present, the objects were listed. */
  synced: boolean;
  /** Newest first. */
  rollouts: NodeRolloutSummary[];
  /** Highest priority first, then by rollout and node name. */
  replacements: NodeReplacementSummary[];
  /** What keeps the picture incomplete (a missing permission, the last error), one line. */
  error?: string;
}

const time = (t: Time): string | undefined => (t instanceof Date ? t.toISOString() : typeof t === 'string' && t !== '' ? t : undefined);
const num = (n: unknown): number | undefined => (typeof n === 'number' && Number.isFinite(n) ? n : undefined);
const priorityOf = (p: WithPriority | undefined): number => num(p?.replacement?.priority) ?? num(p?.priority) ?? 0;
/** A count the controller wrote, else the length of its list (the `…Count` fields are omitted when 0). */
const count = (list: unknown[] | undefined, n: unknown): number => num(n) ?? (Array.isArray(list) ? list.length : 0);

export function summarizeNodeRollout(o: NodeRolloutObject): NodeRolloutSummary {
  const spec = o.spec ?? {};
  const status = o.status ?? {};
  const targets: RolloutTarget[] = [
    ...(Array.isArray(spec.nodeNames) ? spec.nodeNames : []).map((n) => ({
      kind: 'node' as const,
      target: n?.name ?? '',
      priority: priorityOf(n),
    })),
    ...(Array.isArray(spec.nodeSelectors) ? spec.nodeSelectors : []).map((s) => ({
      kind: 'selector' as const,
      target: describeSelector(s ?? {}) || '(every node)',
      priority: priorityOf(s),
    })),
  ];
  const out: NodeRolloutSummary = {
    name: o.metadata?.name ?? '',
    phase: status.phase || 'New',
    targets,
    priorities: [...new Set(targets.map((t) => t.priority))].sort((a, b) => b - a),
    replacementsCreated: count(status.replacementsCreated, status.replacementsCreatedCount),
    replacementsCompleted: count(status.replacementsCompleted, status.replacementsCompletedCount),
  };
  const created = time(o.metadata?.creationTimestamp);
  if (created) out.createdAt = created;
  const completed = time(status.completionTimestamp);
  if (completed) out.completionTimestamp = completed;
  return out;
}

export function summarizeNodeReplacement(o: NodeReplacementObject): NodeReplacementSummary {
  const status = o.status ?? {};
  const failed = (Array.isArray(status.failedPods) ? status.failedPods : []).map((p) => ({ name: p?.name ?? '', reason: p?.reason ?? '' }));
  const out: NodeReplacementSummary = {
    name: o.metadata?.name ?? '',
    nodeName: o.spec?.nodeName ?? '',
    priority: priorityOf(o.spec),
    phase: status.phase || 'New',
    nodePods: count(status.nodePods, status.nodePodsCount),
    evictedPods: count(status.evictedPods, status.evictedPodsCount),
    ignoredPods: count(status.ignoredPods, status.ignoredPodsCount),
    failedPods: count(status.failedPods, status.failedPodsCount),
    failed,
  };
  const owner =
    o.metadata?.ownerReferences?.find((r) => r.kind === 'NodeRollout' && r.controller) ??
    o.metadata?.ownerReferences?.find((r) => r.kind === 'NodeRollout');
  if (owner?.name) out.rollout = owner.name;
  const created = time(o.metadata?.creationTimestamp);
  if (created) out.createdAt = created;
  const completed = time(status.completionTimestamp);
  if (completed) out.completionTimestamp = completed;
  return out;
}

export function compareRollouts(a: NodeRolloutSummary, b: NodeRolloutSummary): number {
  return (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || a.name.localeCompare(b.name);
}

export function compareReplacements(a: NodeReplacementSummary, b: NodeReplacementSummary): number {
  return (
    b.priority - a.priority ||
    (a.rollout ?? '').localeCompare(b.rollout ?? '') ||
    a.nodeName.localeCompare(b.nodeName) ||
    a.name.localeCompare(b.name)
  );
}

// ---------------------------------------------------------------------------------------------
// Creating a NodeRollout

/** A selection entry: a selector in kubectl syntax, or a LabelSelector as Návarchos writes it. */
export type NodeSelectorRequest = ({ selector: string } | LabelSelector) & { priority: number };

export interface NodeRolloutRequest {
  nodeSelectors?: NodeSelectorRequest[];
  nodeNames?: { name: string; priority: number }[];
}

/** The NodeRollout object for a request (`generateName: rollout-`), as Návarchos' README writes one. */
export function nodeRolloutBody(req: NodeRolloutRequest): NodeRolloutObject {
  const priority = (p: number, what: string) => {
    if (!Number.isInteger(p)) throw new Error(`${what}: priority must be a whole number (got ${p})`);
    return { priority: p };
  };
  const nodeSelectors = (req.nodeSelectors ?? []).map((s) => {
    const sel =
      'selector' in s
        ? parseLabelSelector(s.selector)
        : {
            ...(s.matchLabels ? { matchLabels: s.matchLabels } : {}),
            ...(s.matchExpressions ? { matchExpressions: s.matchExpressions } : {}),
          };
    return { ...sel, replacement: priority(s.priority, `selector ${describeSelector(sel) || '(every node)'}`) };
  });
  const nodeNames = (req.nodeNames ?? []).map((n) => {
    if (!n.name) throw new Error('a node name is empty');
    return { name: n.name, replacement: priority(n.priority, `node ${n.name}`) };
  });
  if (nodeSelectors.length === 0 && nodeNames.length === 0) throw new Error('a NodeRollout needs at least one node selector or node name');
  const spec: NonNullable<NodeRolloutObject['spec']> = {};
  if (nodeSelectors.length) spec.nodeSelectors = nodeSelectors;
  if (nodeNames.length) spec.nodeNames = nodeNames;
  return { apiVersion: NAVARCHOS_API_VERSION, kind: 'NodeRollout', metadata: { generateName: 'rollout-' }, spec };
}

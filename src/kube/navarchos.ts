/**
 * Návarchos (github.com/pusher/navarchos), observed: when its CRDs exist in a cluster, the
 * NodeRollouts and the NodeReplacements its controller creates for them, reduced to small
 * summaries and kept live from watches; and creating a NodeRollout, which leaves the work to the
 * controller. Both kinds are cluster-scoped, group navarchos.pusher.com, version v1alpha1.
 *
 * The CRDs are watched by name (field selector `metadata.name`), so a cluster without
 * Návarchos costs two quiet watches and nothing is polled: the CR watches start when the CRD
 * is established and stop when it goes.
 */
import { ApiextensionsV1Api, CustomObjectsApi, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { makeClient } from './client.js';
import { WatchedCollection, coalesce } from './collection.js';
import type { ListResult } from './watch.js';

export const NAVARCHOS_GROUP = 'navarchos.pusher.com';
export const NAVARCHOS_VERSION = 'v1alpha1';
export const NAVARCHOS_API_VERSION = `${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}`;
/** The CRDs by the names the API server knows them. */
export const NAVARCHOS_CRDS = {
  rollouts: `noderollouts.${NAVARCHOS_GROUP}`,
  replacements: `nodereplacements.${NAVARCHOS_GROUP}`,
} as const;
const ROLLOUTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'noderollouts' } as const;
const REPLACEMENTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'nodereplacements' } as const;

// ---------------------------------------------------------------------------------------------
// The objects, as the server sends them (Návarchos' v1alpha1 types)

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

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

/** A LabelSelector in kubectl's syntax: `a=b,c in (d,e),!f`. */
export function selectorString(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  for (const r of selector.matchExpressions ?? []) {
    const values = [...(r.values ?? [])].sort();
    switch (r.operator) {
      case 'In':
        parts.push(values.length === 1 ? `${r.key}=${values[0]}` : `${r.key} in (${values.join(',')})`);
        break;
      case 'NotIn':
        parts.push(values.length === 1 ? `${r.key}!=${values[0]}` : `${r.key} notin (${values.join(',')})`);
        break;
      case 'Exists':
        parts.push(r.key);
        break;
      case 'DoesNotExist':
        parts.push(`!${r.key}`);
        break;
      default:
        parts.push(`${r.key} ${r.operator} (${values.join(',')})`);
    }
  }
  return parts.join(',');
}

export function summarizeNodeRollout(o: NodeRolloutObject): NodeRolloutSummary {
  const spec = o.spec ?? {};
  const status = o.status ?? {};
  const targets: RolloutTarget[] = [
    ...(Array.isArray(spec.nodeNames) ? spec.nodeNames : []).map((n) => ({ kind: 'node' as const, target: n?.name ?? '', priority: priorityOf(n) })),
    ...(Array.isArray(spec.nodeSelectors) ? spec.nodeSelectors : []).map((s) => ({
      kind: 'selector' as const,
      target: selectorString(s ?? {}) || '(every node)',
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
  const owner = o.metadata?.ownerReferences?.find((r) => r.kind === 'NodeRollout' && r.controller) ?? o.metadata?.ownerReferences?.find((r) => r.kind === 'NodeRollout');
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
  return b.priority - a.priority || (a.rollout ?? '').localeCompare(b.rollout ?? '') || a.nodeName.localeCompare(b.nodeName) || a.name.localeCompare(b.name);
}

// ---------------------------------------------------------------------------------------------
// Creating a NodeRollout

/** A selection entry: a selector in kubectl syntax, or a LabelSelector as Návarchos writes it. */
export type NodeSelectorRequest = ({ selector: string } | LabelSelector) & { priority: number };

export interface NodeRolloutRequest {
  nodeSelectors?: NodeSelectorRequest[];
  nodeNames?: { name: string; priority: number }[];
}

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** Splits on commas outside parentheses. */
function splitRequirements(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out.map((x) => x.trim());
}

/**
 * A label selector in kubectl's syntax (`a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`,
 * `a`, `!a`, comma separated) as a LabelSelector. Throws on invalid syntax, keys or values.
 */
export function parseSelector(text: string): LabelSelector {
  const sel: LabelSelector = {};
  const trimmed = text.trim();
  if (trimmed === '') return sel;
  const labels: Record<string, string> = {};
  const exprs: LabelSelectorRequirement[] = [];
  const checkKey = (k: string) => {
    if (!KEY.test(k) || k.length > 316) throw new Error(`invalid label key "${k}" in selector "${text}"`);
  };
  const checkValue = (v: string) => {
    if (!VALUE.test(v) || v.length > 63) throw new Error(`invalid label value "${v}" in selector "${text}"`);
  };
  for (const req of splitRequirements(trimmed)) {
    let m: RegExpExecArray | null;
    if (req === '') throw new Error(`empty requirement in selector "${text}"`);
    if ((m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(req))) {
      const values = m[3]!.split(',').map((v) => v.trim());
      checkKey(m[1]!);
      if (values.length === 0 || values.some((v) => v === '')) throw new Error(`empty value list in "${req}"`);
      values.forEach(checkValue);
      exprs.push({ key: m[1]!, operator: m[2] === 'in' ? 'In' : 'NotIn', values });
    } else if ((m = /^([^=!\s]+)\s*!=\s*(\S*)$/.exec(req))) {
      checkKey(m[1]!);
      checkValue(m[2]!);
      exprs.push({ key: m[1]!, operator: 'NotIn', values: [m[2]!] });
    } else if ((m = /^([^=!\s]+)\s*==?\s*(\S*)$/.exec(req))) {
      checkKey(m[1]!);
      checkValue(m[2]!);
      if (labels[m[1]!] !== undefined && labels[m[1]!] !== m[2]) throw new Error(`"${m[1]}" cannot equal two values in selector "${text}"`);
      labels[m[1]!] = m[2]!;
    } else if ((m = /^!\s*(\S+)$/.exec(req))) {
      checkKey(m[1]!);
      exprs.push({ key: m[1]!, operator: 'DoesNotExist' });
    } else if (/^\S+$/.test(req)) {
      checkKey(req);
      exprs.push({ key: req, operator: 'Exists' });
    } else {
      throw new Error(`cannot parse "${req}" in selector "${text}"`);
    }
  }
  if (Object.keys(labels).length) sel.matchLabels = labels;
  if (exprs.length) sel.matchExpressions = exprs;
  return sel;
}

/** The NodeRollout object for a request (`generateName: rollout-`), as Návarchos' README writes one. */
export function nodeRolloutBody(req: NodeRolloutRequest): NodeRolloutObject {
  const priority = (p: number, what: string) => {
    if (!Number.isInteger(p)) throw new Error(`${what}: priority must be a whole number (got ${p})`);
    return { priority: p };
  };
  const nodeSelectors = (req.nodeSelectors ?? []).map((s) => {
    const sel = 'selector' in s ? parseSelector(s.selector) : { ...(s.matchLabels ? { matchLabels: s.matchLabels } : {}), ...(s.matchExpressions ? { matchExpressions: s.matchExpressions } : {}) };
    return { ...sel, replacement: priority(s.priority, `selector ${selectorString(sel) || '(every node)'}`) };
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

/**
 * Creates a NodeRollout (name generated by the server: `rollout-xxxxx`) and leaves the work to
 * the Návarchos controller. Resolves with the created object's summary.
 */
export async function createNodeRollout(kc: KubeConfig, req: NodeRolloutRequest): Promise<NodeRolloutSummary> {
  const body = nodeRolloutBody(req);
  const custom = makeClient(kc, CustomObjectsApi);
  const created = (await custom.createClusterCustomObject({ ...ROLLOUTS, body })) as NodeRolloutObject;
  return summarizeNodeRollout(created);
}

// ---------------------------------------------------------------------------------------------
// Watching

interface CrdState {
  established: boolean;
  deleting: boolean;
}

function crdState(crd: V1CustomResourceDefinition): CrdState {
  return {
    established: (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True'),
    deleting: !!crd.metadata?.deletionTimestamp,
  };
}

const noop = () => {};

class NavarchosWatcher {
  private readonly crds: Record<keyof typeof NAVARCHOS_CRDS, WatchedCollection<V1CustomResourceDefinition, CrdState>>;
  private rollouts: WatchedCollection<NodeRolloutObject, NodeRolloutSummary> | undefined;
  private replacements: WatchedCollection<NodeReplacementObject, NodeReplacementSummary> | undefined;
  private readonly custom: CustomObjectsApi;
  private readonly stopping = new Set<Promise<void>>();
  private readonly publish = coalesce(() => this.publishNow());
  private last = '';
  private stopped = true;

  constructor(
    private readonly kc: KubeConfig,
    private readonly onChange: (state: NavarchosState) => void,
  ) {
    const ext = makeClient(kc, ApiextensionsV1Api);
    this.custom = makeClient(kc, CustomObjectsApi);
    const crd = (name: string) => {
      const fieldSelector = `metadata.name=${name}`;
      return new WatchedCollection<V1CustomResourceDefinition, CrdState>({
        kc,
        resource: 'customresourcedefinitions',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        queryParams: { fieldSelector },
        list: () => ext.listCustomResourceDefinition({ fieldSelector }),
        summarize: crdState,
        onChange: () => this.changed(),
        onDisconnect: noop,
      });
    };
    this.crds = { rollouts: crd(NAVARCHOS_CRDS.rollouts), replacements: crd(NAVARCHOS_CRDS.replacements) };
  }

  /** Whether the CRD serves objects: established and not being deleted; `undefined` while unknown. */
  private serves(which: keyof typeof NAVARCHOS_CRDS): boolean | undefined {
    const c = this.crds[which];
    if (c.synced) return c.values().some((s) => s.established && !s.deleting);
    // CRDs cannot be read (403): watch the objects anyway, a 404 there says "not installed".
    if (c.forbidden !== undefined) return true;
    return undefined;
  }

  private changed(): void {
    if (this.stopped) return;
    this.reconcile();
    this.publish.request();
  }

  private retire(c: { stop(): Promise<void> }): void {
    const p = c.stop().finally(() => this.stopping.delete(p));
    this.stopping.add(p);
  }

  private reconcile(): void {
    const wantRollouts = this.serves('rollouts');
    if (wantRollouts === true && !this.rollouts) {
      this.rollouts = new WatchedCollection<NodeRolloutObject, NodeRolloutSummary>({
        kc: this.kc,
        resource: NAVARCHOS_CRDS.rollouts,
        path: `/apis/${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}/${ROLLOUTS.plural}`,
        list: () => this.custom.listClusterCustomObject({ ...ROLLOUTS }) as Promise<ListResult<NodeRolloutObject>>,
        summarize: summarizeNodeRollout,
        onChange: () => this.changed(),
        onDisconnect: noop,
        backoff: { initialMs: 250, maxMs: 5_000 },
      });
      this.rollouts.start();
    } else if (wantRollouts === false && this.rollouts) {
      this.retire(this.rollouts);
      this.rollouts = undefined;
    }
    const wantReplacements = this.serves('replacements');
    if (wantReplacements === true && !this.replacements) {
      this.replacements = new WatchedCollection<NodeReplacementObject, NodeReplacementSummary>({
        kc: this.kc,
        resource: NAVARCHOS_CRDS.replacements,
        path: `/apis/${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}/${REPLACEMENTS.plural}`,
        list: () => this.custom.listClusterCustomObject({ ...REPLACEMENTS }) as Promise<ListResult<NodeReplacementObject>>,
        summarize: summarizeNodeReplacement,
        onChange: () => this.changed(),
        onDisconnect: noop,
        backoff: { initialMs: 250, maxMs: 5_000 },
      });
      this.replacements.start();
    } else if (wantReplacements === false && this.replacements) {
      this.retire(this.replacements);
      this.replacements = undefined;
    }
  }

  state(): NavarchosState {
    const inferred = !this.crds.rollouts.synced && this.crds.rollouts.forbidden !== undefined;
    // A collection still waiting for its first list (e.g. a CRD just created) is not an answer yet.
    const listed = (c: { answered: boolean; notFound: boolean } | undefined) => c === undefined || c.answered || (inferred && c.notFound);
    const installed = inferred ? this.rollouts?.synced === true : this.serves('rollouts') === true;
    const state: NavarchosState = {
      installed,
      synced: this.crds.rollouts.answered && this.crds.replacements.answered && listed(this.rollouts) && listed(this.replacements),
      rollouts: installed ? (this.rollouts?.values() ?? []).sort(compareRollouts) : [],
      replacements: installed ? (this.replacements?.values() ?? []).sort(compareReplacements) : [],
    };
    const problems = [this.crds.rollouts, this.crds.replacements, this.rollouts, this.replacements]
      .flatMap((c) => (c ? [c.forbidden ?? (c.notFound ? undefined : c.lastError)] : []))
      .filter((m): m is string => m !== undefined);
    if (problems.length) state.error = [...new Set(problems)].join('; ');
    return state;
  }

  private publishNow(): void {
    if (this.stopped) return;
    const s = this.state();
    const key = JSON.stringify(s);
    if (key === this.last) return;
    this.last = key;
    this.onChange(s);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.crds.rollouts.start();
    this.crds.replacements.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.publish.cancel();
    const running = [this.crds.rollouts, this.crds.replacements, this.rollouts, this.replacements].filter((c) => c !== undefined);
    this.rollouts = undefined;
    this.replacements = undefined;
    await Promise.all([...running.map((c) => c.stop()), ...this.stopping]);
  }
}

/**
 * Watches Návarchos in one context (its KubeConfig): `onChange` gets the whole picture on every
 * change (coalesced, never twice the same). Without the CRDs, `installed: false`; the CRDs
 * appearing (or going) is seen through their watch. Resolves once `signal` aborted and every
 * watch stopped.
 */
export function watchNavarchos(kc: KubeConfig, onChange: (state: NavarchosState) => void, signal: AbortSignal): Promise<void> {
  const w = new NavarchosWatcher(kc, onChange);
  return new Promise<void>((resolve) => {
    const stop = () => void w.stop().then(resolve, resolve);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    w.start();
  });
}

/**
 * The Status tab's slice: every context's summaries, written by the status feed's watches and
 * probes through one batcher (a ContextSink), so a burst of watch events is one store update.
 */
import { emptyEvents } from '../kube/events/events.js';
import type { ContextInfo } from '../kube/config/kubeconfig.js';
import type { NodeSummary } from '../kube/nodes/nodes.js';
import { emptyPods } from '../kube/pods/pods.js';
import type { ContextPatch, ContextSink, ContextSlices, SliceKey } from '../kube/fleet/sink.js';
import type { FleetStore } from './fleet-store.js';
import type { ContextState } from './types.js';

/** The Status tab's slice: every context's summaries, written by the status feed's batcher. */
export interface StatusSlice {
  /** Context names in display order. */
  order: string[];
  contexts: Record<string, ContextState>;
  /** Bumped once per applied batch; handy for tests and benchmarks. */
  revision: number;
}

export function emptyContext(info: ContextInfo): ContextState {
  return { ...info, reachability: 'unknown', nodes: { synced: false, items: {} }, pods: emptyPods(), events: emptyEvents() };
}

/** The slice for `contexts`, in their order; a context already known keeps what it has. */
export function statusOf(contexts: readonly ContextInfo[], known: Record<string, ContextState> = {}, revision = 0): StatusSlice {
  return {
    order: contexts.map((c) => c.name),
    contexts: Object.fromEntries(contexts.map((c) => [c.name, known[c.name] ?? emptyContext(c)])),
    revision,
  };
}

interface PendingContext {
  patch?: ContextPatch;
  /** Node upserts (summary) and deletions (null), in arrival order per name. */
  nodes?: Map<string, NodeSummary | null>;
  /** Replace the whole node set (after a full list). */
  nodesReset?: Record<string, NodeSummary>;
  nodesMeta?: { synced?: boolean; forbidden?: string | undefined };
  /**
   * Other slices (pods, events, fleet namespace, control plane): replaced whole, last one wins.
   * A function is called at the flush, so a summary is computed once per flush, not per event.
   */
  slices?: { [K in SliceKey]?: ContextSlices[K] | (() => ContextSlices[K]) };
}

/**
 * Collects updates from watches and probes and applies them to the store in one
 * `setState` per flush, so a burst of a thousand watch events causes one render.
 */
export class UpdateBatcher implements ContextSink {
  private pending = new Map<string, PendingContext>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: FleetStore,
    private readonly intervalMs = 50,
  ) {}

  private entry(ctx: string): PendingContext {
    let e = this.pending.get(ctx);
    if (!e) {
      e = {};
      this.pending.set(ctx, e);
    }
    this.schedule();
    return e;
  }

  private schedule(delayMs = this.intervalMs): void {
    if (this.timer || this.intervalMs < 0) return;
    this.timer = setTimeout(() => this.flush(), delayMs);
    this.timer.unref?.();
  }

  /** Applies what is pending at the next turn of the event loop (a full list arrived). */
  soon(): void {
    if (this.intervalMs < 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(0);
  }

  patchContext(ctx: string, patch: ContextPatch): void {
    const e = this.entry(ctx);
    e.patch = { ...e.patch, ...patch };
  }

  upsertNode(ctx: string, node: NodeSummary): void {
    // A kubelet's heartbeat changes nothing the store keeps: no flush for it.
    const p = this.pending.get(ctx);
    if (!p?.nodesReset && !p?.nodes?.has(node.name) && sameNode(this.store.getState().status.contexts[ctx]?.nodes.items[node.name], node))
      return;
    this.nodeChanges(ctx).set(node.name, node);
  }

  deleteNode(ctx: string, name: string): void {
    this.nodeChanges(ctx).set(name, null);
  }

  /** The pending node upserts and deletions of a context. */
  private nodeChanges(ctx: string): Map<string, NodeSummary | null> {
    const e = this.entry(ctx);
    e.nodes ??= new Map();
    return e.nodes;
  }

  /** A full list arrived: it replaces whatever was there. */
  resetNodes(ctx: string, nodes: NodeSummary[]): void {
    const e = this.entry(ctx);
    e.nodesReset = Object.fromEntries(nodes.map((n) => [n.name, n]));
    e.nodes = undefined;
    e.nodesMeta = { ...e.nodesMeta, synced: true, forbidden: undefined };
    this.soon();
  }

  /**
   * Replace one slice of a context with a new summary (watchers that aggregate call this), or
   * with a function computing it, called once at the next flush.
   */
  setSlice<K extends SliceKey>(ctx: string, key: K, value: NonNullable<ContextSlices[K]> | (() => NonNullable<ContextSlices[K]>)): void {
    const e = this.entry(ctx);
    e.slices ??= {};
    e.slices[key] = value as never;
  }

  nodesForbidden(ctx: string, message: string): void {
    const e = this.entry(ctx);
    e.nodesMeta = { ...e.nodesMeta, forbidden: message };
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const status = this.store.getState().status;
    const contexts = { ...status.contexts };
    let changed = false;
    for (const [name, p] of pending) {
      const current = contexts[name];
      if (!current) continue;
      const next = applyPending(current, p);
      if (next !== current) {
        contexts[name] = next;
        changed = true;
      }
    }
    // Heartbeats and repeated values change nothing on screen: no store update, no render.
    if (changed) this.store.setState({ status: { ...status, contexts, revision: status.revision + 1 } });
  }

  dispose(): void {
    this.flush();
  }
}

function sameNode(a: NodeSummary | undefined, b: NodeSummary): boolean {
  return (
    !!a &&
    a.uid === b.uid &&
    a.ready === b.ready &&
    a.notReadyReason === b.notReadyReason &&
    a.unschedulable === b.unschedulable &&
    a.zone === b.zone &&
    a.kubeletVersion === b.kubeletVersion &&
    a.roles.join(',') === b.roles.join(',')
  );
}

/** The context with the pending updates applied; the same object when nothing changed. */
function applyPending(current: ContextState, p: PendingContext): ContextState {
  let nodes = current.nodes;
  if (p.nodesReset || p.nodes || p.nodesMeta) {
    let items = current.nodes.items;
    if (p.nodesReset) items = { ...p.nodesReset };
    for (const [n, s] of p.nodes ?? []) {
      if (s ? sameNode(items[n], s) : !(n in items)) continue;
      if (items === current.nodes.items) items = { ...items };
      if (s) items[n] = s;
      else delete items[n];
    }
    const meta = p.nodesMeta ?? {};
    const metaChanged = Object.entries(meta).some(([k, v]) => current.nodes[k as keyof typeof meta] !== v);
    if (items !== current.nodes.items || metaChanged) nodes = { ...current.nodes, ...meta, items };
  }
  const patch = Object.entries(p.patch ?? {}).filter(([k, v]) => current[k as keyof ContextState] !== v);
  const slices = Object.entries(p.slices ?? {}).map(([k, v]) => [k, typeof v === 'function' ? (v as () => unknown)() : v]);
  if (nodes === current.nodes && patch.length === 0 && slices.length === 0) return current;
  return { ...current, ...Object.fromEntries(patch), ...Object.fromEntries(slices), nodes };
}

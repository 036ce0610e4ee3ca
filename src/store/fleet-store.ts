import { createStore, type StoreApi } from 'zustand/vanilla';
import { emptyEvents } from '../kube/events/events.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import type { ContextInfo } from '../kube/config/kubeconfig.js';
import type { NodeSummary } from '../kube/nodes/nodes.js';
import { emptyPods } from '../kube/pods/pods.js';
import type { ContextPatch, ContextSink, ContextSlices, SliceKey } from '../kube/fleet/sink.js';
import { emptyApprovals, type ApprovalsSlice } from './approvals.js';
import { emptyCerts, type CertsSlice } from './certs.js';
import { emptyDay2, type Day2Slice } from './day2.js';
import { emptyInstall, type InstallSlice } from './install.js';
import { emptyLogs, type LogsSlice } from './logs.js';
import { emptyPrepare, type PrepareSlice } from './prepare.js';
import { emptyRollouts, type RolloutsSlice } from './rollouts.js';
import { emptyStorage, type StorageSlice } from './storage.js';
import { emptyWorkloads, type WorkloadsSlice } from './workloads.js';
import type { ContextState } from './types.js';

/** One slice per tab and view besides Status; each written by its feed only. */
export interface TabSlices {
  rollouts: RolloutsSlice;
  storage: StorageSlice;
  approvals: ApprovalsSlice;
  /** The Status screen's Certificates view. */
  certs: CertsSlice;
  prepare: PrepareSlice;
  install: InstallSlice;
  /** The Install tab's Day 2 page. */
  day2: Day2Slice;
  /** The log view (opened over any tab). */
  logs: LogsSlice;
  workloads: WorkloadsSlice;
}

export function emptyTabSlices(): TabSlices {
  return {
    rollouts: emptyRollouts(),
    storage: emptyStorage(),
    approvals: emptyApprovals(),
    certs: emptyCerts(),
    prepare: emptyPrepare(),
    install: emptyInstall(),
    day2: emptyDay2(),
    logs: emptyLogs(),
    workloads: emptyWorkloads(),
  };
}

/** The Status tab's slice: every context's summaries, written by the status feed's batcher. */
export interface StatusSlice {
  /** Context names in display order. */
  order: string[];
  contexts: Record<string, ContextState>;
  /** Bumped once per applied batch; handy for tests and benchmarks. */
  revision: number;
}

export interface FleetState extends TabSlices {
  status: StatusSlice;
  /** The fleet being watched, when one is defined (config file or flags). */
  fleet?: FleetConfig;
  /** The kubeconfig files the contexts come from, when they changed after start (the sandbox). */
  kubeconfigFiles?: string[];
  /** A one-line message about fleetdeck itself (e.g. "starting the sandbox…"), shown above the key hints. */
  banner?: Banner;
}

export interface Banner {
  kind: 'info' | 'progress' | 'error';
  text: string;
}

export type FleetStore = StoreApi<FleetState>;

export function emptyContext(info: ContextInfo): ContextState {
  return { ...info, reachability: 'unknown', nodes: { synced: false, items: {} }, pods: emptyPods(), events: emptyEvents() };
}

/** `warnDays`: --warn-days, the residual time under which the Certificates view and the status row flag a certificate. */
export function createFleetStore(contexts: ContextInfo[] = [], fleet?: FleetConfig, warnDays?: number): FleetStore {
  return createStore<FleetState>()(() => ({
    status: {
      order: contexts.map((c) => c.name),
      contexts: Object.fromEntries(contexts.map((c) => [c.name, emptyContext(c)])),
      revision: 0,
    },
    ...(fleet ? { fleet } : {}),
    ...emptyTabSlices(),
    ...(warnDays !== undefined ? { certs: emptyCerts(warnDays) } : {}),
  }));
}

/** Replace one tab's slice with `change` of it (its feed's only way in). */
export function updateSlice<K extends keyof TabSlices>(store: FleetStore, key: K, change: (slice: TabSlices[K]) => TabSlices[K]): void {
  store.setState((s) => {
    const next = change(s[key]);
    return next === s[key] ? s : ({ [key]: next } as Pick<TabSlices, K>);
  });
}

/** Replace the set of contexts (e.g. after the sandbox started and wrote its kubeconfig). */
export function setContexts(store: FleetStore, contexts: ContextInfo[], fleet?: FleetConfig, kubeconfigFiles?: string[]): void {
  store.setState((s) => ({
    status: {
      order: contexts.map((c) => c.name),
      contexts: Object.fromEntries(contexts.map((c) => [c.name, s.status.contexts[c.name] ?? emptyContext(c)])),
      revision: s.status.revision + 1,
    },
    fleet,
    ...(kubeconfigFiles ? { kubeconfigFiles } : {}),
  }));
}

export function setBanner(store: FleetStore, banner: Banner | undefined): void {
  store.setState({ banner });
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

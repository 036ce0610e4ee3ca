/**
 * Contexts that reach the same API server as the same user see the same cluster: a kubeconfig
 * often holds several names for one (one per namespace, per team, per tool that wrote it). Such
 * contexts share one monitor (one set of watches, one probe, one connection pool) whose updates
 * are written to each of them; the store holds the same summaries under every name.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { NodeSummary } from '../nodes/nodes.js';
import type { ContextPatch, ContextSink, ContextSlices, SliceKey } from '../fleet/sink.js';

/**
 * What decides what a context sees: its cluster (server, CA, TLS options, proxy) and its user
 * (token, certificate, exec plugin and its environment, …), their names left out. Contexts
 * with the same key see the same objects cluster-wide.
 */
export function viewKey(kc: KubeConfig): string {
  const { name: _c, ...cluster } = kc.getCurrentCluster() ?? { name: '' };
  const { name: _u, ...user } = kc.getCurrentUser() ?? { name: '' };
  return JSON.stringify([cluster, user]);
}

/** Groups names by key, in first-seen order; `unique` names are never grouped. */
export function groupContexts(names: readonly string[], key: (name: string) => string, unique: (name: string) => boolean): string[][] {
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const k = unique(n) ? `\0${n}` : key(n);
    const g = groups.get(k);
    if (g) g.push(n);
    else groups.set(k, [n]);
  }
  return [...groups.values()];
}

/** Computes a value once, the first time it is asked for. */
function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}

/** Writes what one monitor sees to every context of its group (the context name it is given is ignored). */
export class FanOutSink implements ContextSink {
  constructor(
    private readonly sink: ContextSink,
    readonly names: readonly string[],
  ) {}

  patchContext(_ctx: string, patch: ContextPatch): void {
    for (const n of this.names) this.sink.patchContext(n, patch);
  }

  upsertNode(_ctx: string, node: NodeSummary): void {
    for (const n of this.names) this.sink.upsertNode(n, node);
  }

  deleteNode(_ctx: string, name: string): void {
    for (const n of this.names) this.sink.deleteNode(n, name);
  }

  resetNodes(_ctx: string, nodes: NodeSummary[]): void {
    for (const n of this.names) this.sink.resetNodes(n, nodes);
  }

  nodesForbidden(_ctx: string, message: string): void {
    for (const n of this.names) this.sink.nodesForbidden(n, message);
  }

  setSlice<K extends SliceKey>(_ctx: string, key: K, value: NonNullable<ContextSlices[K]> | (() => NonNullable<ContextSlices[K]>)): void {
    // A summary computed at the flush is computed once and shared by the group.
    const shared = typeof value === 'function' ? once(value as () => NonNullable<ContextSlices[K]>) : value;
    for (const n of this.names) this.sink.setSlice(n, key, shared);
  }

  soon(): void {
    this.sink.soon?.();
  }
}

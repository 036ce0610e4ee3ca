import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { WorkQueue } from './queue.js';

/**
 * A Node annotated with this (value `"true"`) is replaced once it is cordoned and drained, as a
 * cloud's immutable infrastructure does (an auto-scaling group terminating a drained instance
 * and launching a fresh one): the Node is deleted and a new one, with a new name, registers in
 * the same zone. The new Node carries the annotation too.
 */
export const REPLACE_WHEN_DRAINED_ANNOTATION = 'sandbox.fleetdeck.io/replace-when-drained';
/** How long a node stays cordoned and drained before it is replaced. */
export const REPLACE_SETTLE_MS = 2_000;

const HOSTNAME_LABEL = 'kubernetes.io/hostname';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export function wantsReplacement(node: V1Node | undefined): boolean {
  return node?.metadata?.annotations?.[REPLACE_WHEN_DRAINED_ANNOTATION] === 'true';
}

/**
 * Whether a pod still keeps its node from being replaced: anything but DaemonSet pods (their
 * controller ignores cordons), mirror pods (the kubelet's static pods) and finished pods. A pod
 * being deleted still counts until it is gone.
 */
export function podKeepsNode(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return false;
  const controller = pod.metadata?.ownerReferences?.find((o) => o.controller === true);
  return controller?.kind !== 'DaemonSet';
}

export type ReplacementVerdict = { ready: true } | { ready: false; reason: string };

/** Whether `node` (with the pods bound to it) is to be replaced now. */
export function drainedForReplacement(node: V1Node | undefined, pods: readonly V1Pod[]): ReplacementVerdict {
  if (!node) return { ready: false, reason: 'no such node' };
  if (!wantsReplacement(node)) return { ready: false, reason: `not annotated ${REPLACE_WHEN_DRAINED_ANNOTATION}=true` };
  if (node.metadata?.deletionTimestamp) return { ready: false, reason: 'being deleted' };
  if (node.spec?.unschedulable !== true) return { ready: false, reason: 'not cordoned' };
  const left = pods.filter(podKeepsNode);
  if (left.length > 0) {
    const names = left.slice(0, 3).map((p) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`);
    return { ready: false, reason: `${left.length} pod(s) left: ${names.join(', ')}${left.length > 3 ? ', …' : ''}` };
  }
  return { ready: true };
}

/**
 * The replacement's name: `<name without an -r<n> suffix>-r<n+1>`, the first one `taken` does
 * not know (`sandbox-node-3` → `sandbox-node-3-r1` → `sandbox-node-3-r2`).
 */
export function replacementName(name: string, taken: (candidate: string) => boolean): string {
  const m = /^(.*)-r(\d+)$/.exec(name);
  const base = m ? m[1]! : name;
  for (let n = m ? Number(m[2]) + 1 : 1; ; n++) {
    const candidate = `${base}-r${n}`;
    if (!taken(candidate)) return candidate;
  }
}

/** The old node's labels for its replacement: all of them, with the replacement's own hostname. */
export function replacementLabels(labels: Readonly<Record<string, string>> | undefined, name: string): Record<string, string> {
  return { ...labels, [HOSTNAME_LABEL]: name };
}

export interface ReplacerHooks {
  /** The latest known Node of that name, if it is ours. */
  node: (name: string) => V1Node | undefined;
  /** The pods bound to it, as last seen. */
  pods: (name: string) => V1Pod[];
  /** Reads the node and its pods from the API: still the same node (uid) and still to be replaced? */
  confirm: (name: string, uid: string) => Promise<boolean>;
  /** Deletes the node and registers its replacement. */
  replace: (name: string, uid: string) => Promise<void>;
}

/**
 * Watches for nodes to replace (told of every change to a node or its pods through `check`):
 * once a node has been annotated, cordoned and drained for `settleMs` without interruption, it
 * is confirmed against the API and replaced. One replacement per node at a time; failures are
 * retried with backoff.
 */
export class NodeReplacer {
  private readonly since = new Map<string, { uid: string; at: number }>();
  private readonly queue: WorkQueue;

  constructor(
    private readonly hooks: ReplacerHooks,
    log: (line: string) => void,
    private readonly settleMs = REPLACE_SETTLE_MS,
  ) {
    this.queue = new WorkQueue('replace node', (name) => this.reconcile(name), log, 2);
  }

  /** Something about the node or its pods changed: (re)start or cancel its settle time. */
  check(name: string): void {
    const node = this.hooks.node(name);
    // Cheap tests first: this runs on every event of every pod on our nodes.
    if (!wantsReplacement(node) || node?.spec?.unschedulable !== true) {
      this.since.delete(name);
      return;
    }
    const uid = node.metadata?.uid ?? '';
    if (!drainedForReplacement(node, this.hooks.pods(name)).ready) {
      this.since.delete(name);
      return;
    }
    const s = this.since.get(name);
    if (s?.uid === uid) return;
    this.since.set(name, { uid, at: Date.now() });
    this.queue.add(name, this.settleMs);
  }

  async stop(): Promise<void> {
    this.since.clear();
    await this.queue.stop();
  }

  private async reconcile(name: string): Promise<void> {
    const s = this.since.get(name);
    if (!s) return;
    const node = this.hooks.node(name);
    if (node?.metadata?.uid !== s.uid || !drainedForReplacement(node, this.hooks.pods(name)).ready) {
      this.since.delete(name);
      return;
    }
    const wait = s.at + this.settleMs - Date.now();
    if (wait > 0) {
      this.queue.add(name, wait);
      return;
    }
    // The caches may lag behind: the API has the last word. Not ready after all: the next
    // change of the node or its pods starts the settle time again.
    if (!(await this.hooks.confirm(name, s.uid))) {
      this.since.delete(name);
      return;
    }
    await this.hooks.replace(name, s.uid); // throws: retried with backoff, `since` kept
    this.since.delete(name);
  }
}

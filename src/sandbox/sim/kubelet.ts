import { randomUUID } from 'node:crypto';
import {
  CoordinationV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
  type V1Node,
  type V1NodeCondition,
  type V1NodeStatus,
} from '@kubernetes/client-node';
import { makeClient, describeError } from '../../kube/client.js';
import { ResilientWatch } from '../../kube/watch.js';
import { ZONE_LABEL } from '../../kube/nodes.js';
import { FIELD_MANAGER, isConflict, isNotFound, retryUntil, sleep, watchErrorLogger, type SimContext } from './context.js';
import { WorkQueue } from './queue.js';
import { PodRunner, type PodNetwork } from './pods.js';
import { NodeReplacer, REPLACE_WHEN_DRAINED_ANNOTATION, drainedForReplacement, replacementLabels, replacementName } from './replacer.js';
import type { ClusterNetwork } from './network.js';

export const SANDBOX_NODE_ANNOTATION = 'fleetdeck.io/sandbox-node';
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const REGION_LABEL = 'topology.kubernetes.io/region';
export const SANDBOX_ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;
export const KUBELET_VERSION = 'v1.20.2';
const LEASE_NAMESPACE = 'kube-node-lease';
const LEASE_SECONDS = 40;
const HEARTBEAT_MS = 10_000;

export interface SimulatedKubeletOptions {
  /** Nodes registered when the cluster has none of ours yet. Default 6. */
  nodes?: number;
  /** Where pod IPs come from (see PodNetwork). Default `cluster`. */
  podNetwork?: PodNetwork;
  /** With the context's runtime: where pods that run for real get their addresses and names. */
  network?: ClusterNetwork;
  /**
   * Annotate every node registered with REPLACE_WHEN_DRAINED_ANNOTATION, so a cordoned and
   * drained node is replaced by a new one (see NodeReplacer). Nodes annotated by anyone else
   * are replaced all the same.
   */
  replaceDrained?: boolean;
  /** How long a node stays cordoned and drained before it is replaced (default REPLACE_SETTLE_MS). */
  replaceSettleMs?: number;
}

interface NodeState {
  name: string;
  /** Position in the cluster: fixes the node's address and zone. */
  ordinal: number;
  ip: string;
  /** Set once the Node exists in the API (created or adopted). */
  uid?: string;
  ready: boolean;
  readySince: Date;
  registeredAt: Date;
  bootID: string;
  last?: V1Node;
  /** Registered with these labels instead of those its ordinal gives (a replacement keeps its predecessor's). */
  labels?: Record<string, string>;
  /** More annotations to register with. */
  annotations?: Record<string, string>;
}

const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

function hasNotReadyTaint(node: V1Node | undefined): boolean {
  return (node?.spec?.taints ?? []).some((t) => t.key === NOT_READY_TAINT);
}

function isReady(node: V1Node | undefined): boolean {
  return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/**
 * Plays the kubelets of one cluster: registers Nodes, keeps their Ready condition and Lease
 * fresh, clears the not-ready taint, and runs the pods bound to them (see PodRunner).
 */
export class SimulatedKubelet {
  private readonly core: CoreV1Api;
  private readonly coordination: CoordinationV1Api;
  private readonly nodes = new Map<string, NodeState>();
  private readonly queue: WorkQueue;
  private readonly watch: ResilientWatch<V1Node>;
  private readonly pods: PodRunner;
  private readonly replacer: NodeReplacer;
  private readonly wanted: number;
  private readonly replaceDrained: boolean;
  private highestOrdinal = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopped = true;

  constructor(
    private readonly ctx: SimContext,
    opts: SimulatedKubeletOptions = {},
  ) {
    this.wanted = opts.nodes ?? 6;
    this.replaceDrained = opts.replaceDrained ?? false;
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.coordination = makeClient(ctx.kc, CoordinationV1Api);
    this.queue = new WorkQueue('node', (name) => this.sync(name), ctx.log, 4);
    this.watch = new ResilientWatch<V1Node>({
      kc: ctx.kc,
      path: '/api/v1/nodes',
      list: () => this.core.listNode(),
      onList: (items) => {
        for (const n of items) this.observe(n);
        const present = new Set(items.map((n) => n.metadata?.name));
        // A node of ours missing from a full list: the next sync finds out (404) and forgets it.
        for (const s of this.nodes.values()) if (s.uid && !present.has(s.name)) this.queue.add(s.name);
      },
      onEvent: (type, n) => (type === 'DELETED' ? this.observeDeleted(n) : this.observe(n)),
      onError: watchErrorLogger(ctx.log, 'nodes'),
    });
    this.pods = new PodRunner(ctx, (name) => this.nodes.get(name)?.ip, opts.podNetwork, opts.network, (name) => this.replacer.check(name));
    this.replacer = new NodeReplacer(
      {
        node: (name) => {
          const s = this.nodes.get(name);
          return s?.uid && s.last?.metadata?.uid === s.uid ? s.last : undefined;
        },
        pods: (name) => this.pods.podsOn(name),
        confirm: (name, uid) => this.confirmReplacement(name, uid),
        replace: (name, uid) => this.replaceNode(name, uid),
      },
      ctx.log,
      opts.replaceSettleMs,
    );
  }

  /**
   * Adopts the Nodes this sandbox registered before (a restart), or registers `nodes` new ones
   * if there are none; then starts heartbeats and the pod runner. Resolves once the
   * registrations were sent; use `waitReady` to wait for Ready and untainted nodes.
   */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const existing = await retryUntil('list nodes', () => this.core.listNode(), {
      log: this.ctx.log,
      isStopped: () => this.stopped,
    });
    if (!existing) return;
    for (const n of existing.items) {
      const name = n.metadata?.name ?? '';
      const ordinal = this.ordinalOf(n);
      if (ordinal) this.highestOrdinal = Math.max(this.highestOrdinal, ordinal);
      if (n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] !== this.ctx.cluster.name || !ordinal) continue;
      const ip = n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? this.nodeIP(ordinal);
      const created = n.metadata?.creationTimestamp ? new Date(n.metadata.creationTimestamp) : new Date();
      this.nodes.set(name, { ...this.newState(name, ordinal, ip), uid: n.metadata?.uid, registeredAt: created, last: n });
    }
    if (this.nodes.size > 0) {
      this.ctx.log(`kubelet: adopted ${this.nodes.size} existing node(s)`);
    } else {
      for (let i = 1; i <= this.wanted; i++) this.plan();
    }
    this.watch.start();
    await this.pods.start();
    for (const name of this.nodes.keys()) this.queue.add(name);
    this.heartbeat = setInterval(() => {
      for (const name of this.nodes.keys()) this.queue.add(name);
    }, HEARTBEAT_MS);
  }

  /** Stops heartbeats, watches and work; an instance is not started again (make a new one). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await Promise.all([this.watch.stop(), this.queue.stop(), this.pods.stop(), this.replacer.stop()]);
  }

  /** The loopback address of a pod (`namespace/name`) whose processes run for real, if any. */
  localAddress(podKey: string): string | undefined {
    return this.pods.localAddress(podKey);
  }

  /** Names of the nodes this kubelet runs, in registration order. */
  nodeNames(): string[] {
    return [...this.nodes.values()].sort((a, b) => a.ordinal - b.ordinal).map((s) => s.name);
  }

  /** True when every node reports Ready and carries no not-ready taint. */
  allReady(): boolean {
    return [...this.nodes.values()].every((s) => s.uid && isReady(s.last) && !hasNotReadyTaint(s.last));
  }

  /** Waits until `allReady()` (or the given nodes are), or throws after `timeoutMs`. */
  async waitReady(timeoutMs = 60_000, names?: string[]): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const done = () =>
      names
        ? names.every((n) => {
            const s = this.nodes.get(n);
            return s?.uid && isReady(s.last) && !hasNotReadyTaint(s.last);
          })
        : this.allReady();
    while (!done()) {
      if (this.stopped) throw new Error('kubelet stopped');
      if (Date.now() > deadline) {
        const waiting = this.nodeNames().filter((n) => {
          const s = this.nodes.get(n);
          return !(s?.uid && isReady(s.last) && !hasNotReadyTaint(s.last));
        });
        throw new Error(`nodes not ready after ${Math.round(timeoutMs / 1000)} s: ${waiting.join(', ')}`);
      }
      await sleep(200);
    }
  }

  /**
   * Registers one more node (default name `<cluster>-node-<n>` with the next free n) and
   * resolves with its name once it is Ready and untainted.
   */
  async addNode(name?: string, timeoutMs = 60_000): Promise<string> {
    if (this.stopped) throw new Error('kubelet is not running');
    if (name && (this.nodes.has(name) || (await ignoreNotFound(this.core.readNode({ name }))))) {
      throw new Error(`node ${name} already exists`);
    }
    const state = this.plan(name);
    this.queue.add(state.name);
    await this.waitReady(timeoutMs, [state.name]);
    return state.name;
  }

  /**
   * Unregisters a node as a deleted machine would: stops its heartbeat and deletes its Lease
   * and the Node. Its pods are left to the pod garbage collector, as in a real cluster.
   */
  async removeNode(name: string): Promise<void> {
    const state = this.nodes.get(name);
    if (!state) throw new Error(`node ${name} is not run by this sandbox`);
    this.nodes.delete(name);
    this.queue.forget(name);
    const deleted = await retryUntil(
      `delete node ${name}`,
      async () => {
        await ignoreNotFound(this.coordination.deleteNamespacedLease({ name, namespace: LEASE_NAMESPACE }));
        const preconditions = state.uid ? { uid: state.uid } : undefined;
        await ignoreNotFound(this.core.deleteNode({ name, body: { preconditions } }));
        return true;
      },
      { log: this.ctx.log, isStopped: () => this.stopped },
    );
    if (deleted) this.ctx.log(`kubelet: node ${name} removed`);
  }

  /** Makes a node report Ready=False (or Ready again); the node lifecycle controller reacts as usual. */
  setReady(name: string, ready: boolean): void {
    const state = this.nodes.get(name);
    if (!state || state.ready === ready) return;
    state.ready = ready;
    state.readySince = new Date();
    this.queue.add(name);
  }

  // --- internals ---

  private nodeIP(ordinal: number): string {
    return `127.1.${this.ctx.cluster.index}.${ordinal}`;
  }

  private ordinalOf(node: V1Node): number | undefined {
    const m = /-node-(\d+)$/.exec(node.metadata?.name ?? '');
    if (m) return Number(m[1]);
    const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
    const prefix = `127.1.${this.ctx.cluster.index}.`;
    return ip.startsWith(prefix) ? Number(ip.slice(prefix.length)) || undefined : undefined;
  }

  private newState(name: string, ordinal: number, ip: string): NodeState {
    const now = new Date();
    return { name, ordinal, ip, ready: true, readySince: now, registeredAt: now, bootID: randomUUID() };
  }

  private plan(name?: string): NodeState {
    let ordinal = this.highestOrdinal + 1;
    if (ordinal > 254) {
      // Every address was handed out once (replacements take new ones): reuse a free one.
      const used = new Set([...this.nodes.values()].map((s) => s.ordinal));
      ordinal = Array.from({ length: 254 }, (_, i) => i + 1).find((o) => !used.has(o)) ?? 0;
      if (!ordinal) throw new Error('no free node address left (254 nodes per cluster)');
    } else {
      this.highestOrdinal = ordinal;
    }
    const state = this.newState(name ?? `${this.ctx.cluster.name}-node-${ordinal}`, ordinal, this.nodeIP(ordinal));
    this.nodes.set(state.name, state);
    return state;
  }

  /** The API's word, right before a replacement: the same node, annotated, cordoned, drained. */
  private async confirmReplacement(name: string, uid: string): Promise<boolean> {
    const node = await ignoreNotFound(this.core.readNode({ name }));
    if (!node || node.metadata?.uid !== uid) return false;
    const pods = await this.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${name}` });
    const verdict = drainedForReplacement(node, pods.items);
    if (!verdict.ready) this.ctx.log(`kubelet: node ${name} not replaced after all: ${verdict.reason}`);
    return verdict.ready;
  }

  /**
   * Plays a cloud replacing a drained machine: deletes the Node (and its Lease) and registers a
   * new one with a new name and address, its predecessor's labels (zone included) but its own
   * hostname, annotated for replacement too, and schedulable.
   */
  private async replaceNode(name: string, uid: string): Promise<void> {
    const state = this.nodes.get(name);
    if (!state || state.uid !== uid || this.stopped) return;
    const labels = state.last?.metadata?.labels;
    const taken = new Set<string>();
    let next = replacementName(name, (n) => this.nodes.has(n) || taken.has(n));
    // A name the API still knows (not one of ours) is skipped too.
    while (await ignoreNotFound(this.core.readNode({ name: next }))) {
      taken.add(next);
      next = replacementName(name, (n) => this.nodes.has(n) || taken.has(n));
    }
    await this.removeNode(name);
    if (this.stopped) return;
    const replacement = this.plan(next);
    replacement.labels = replacementLabels(labels, next);
    replacement.annotations = { [REPLACE_WHEN_DRAINED_ANNOTATION]: 'true' };
    this.ctx.log(`kubelet: node ${name} was cordoned and drained; replacing it with ${next} (${labels?.[ZONE_LABEL] ?? 'no zone'})`);
    this.queue.add(next);
  }

  private observe(node: V1Node): void {
    const state = this.nodes.get(node.metadata?.name ?? '');
    if (!state || !state.uid || state.uid !== node.metadata?.uid) return;
    state.last = node;
    if (state.ready && hasNotReadyTaint(node)) this.queue.add(state.name);
    this.replacer.check(state.name);
  }

  private observeDeleted(node: V1Node): void {
    const state = this.nodes.get(node.metadata?.name ?? '');
    if (!state || !state.uid || state.uid !== node.metadata?.uid) return;
    this.forgetDeleted(state);
  }

  private forgetDeleted(state: NodeState): void {
    if (this.nodes.get(state.name) !== state) return;
    this.nodes.delete(state.name);
    this.queue.forget(state.name);
    this.ctx.log(`kubelet: node ${state.name} was deleted; not registering it again`);
  }

  /** Register if needed, post status (the heartbeat), clear the not-ready taint, renew the Lease. */
  private async sync(name: string): Promise<void> {
    const state = this.nodes.get(name);
    if (!state || this.stopped) return;
    if (!state.uid) {
      await this.register(state);
      if (!state.uid) return;
    }
    let node: V1Node;
    try {
      node = await this.core.patchNodeStatus(
        { name, body: { status: this.status(state) }, fieldManager: FIELD_MANAGER },
        mergePatch(),
      );
    } catch (err) {
      if (isNotFound(err)) return this.forgetDeleted(state);
      throw err;
    }
    if (node.metadata?.uid !== state.uid) return this.forgetDeleted(state);
    state.last = node;
    if (state.ready && hasNotReadyTaint(node)) await this.untaint(state, node);
    await this.renewLease(state);
  }

  private async register(state: NodeState): Promise<void> {
    const { name, ordinal } = state;
    const body: V1Node = {
      metadata: {
        name,
        labels: state.labels ?? this.labels(name, ordinal),
        annotations: {
          [SANDBOX_NODE_ANNOTATION]: this.ctx.cluster.name,
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
          ...(this.replaceDrained ? { [REPLACE_WHEN_DRAINED_ANNOTATION]: 'true' } : {}),
          ...state.annotations,
        },
      },
      spec: { providerID: `sandbox://${this.ctx.cluster.name}/${name}` },
      status: this.status(state),
    };
    try {
      const created = await this.core.createNode({ body, fieldManager: FIELD_MANAGER });
      state.uid = created.metadata?.uid;
      state.last = created;
      this.ctx.log(`kubelet: registered node ${name} (${state.ip}, ${body.metadata?.labels?.[ZONE_LABEL]})`);
    } catch (err) {
      if (!isConflict(err)) throw err;
      // Already there (an earlier attempt went through): take it over.
      const existing = await this.core.readNode({ name });
      state.uid = existing.metadata?.uid;
      state.last = existing;
    }
  }

  private labels(name: string, ordinal: number): Record<string, string> {
    const roles: Record<string, string> =
      ordinal === 1
        ? { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' }
        : { 'node-role.kubernetes.io/worker': '' };
    return {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/arch': 'amd64',
      [ZONE_LABEL]: SANDBOX_ZONES[(ordinal - 1) % SANDBOX_ZONES.length]!,
      [REGION_LABEL]: 'sandbox',
      ...roles,
    };
  }

  private status(state: NodeState): V1NodeStatus {
    const now = new Date();
    const condition = (type: string, status: string, reason: string, message: string, since: Date): V1NodeCondition => ({
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime: since,
    });
    const capacity = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
    return {
      conditions: [
        condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', state.registeredAt),
        condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', state.registeredAt),
        condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', state.registeredAt),
        state.ready
          ? condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', state.readySince)
          : condition('Ready', 'False', 'KubeletNotReady', 'sandbox: node marked not ready', state.readySince),
      ],
      addresses: [
        { type: 'InternalIP', address: state.ip },
        { type: 'Hostname', address: state.name },
      ],
      capacity,
      allocatable: { cpu: '3900m', memory: '15872Mi', pods: '110', 'ephemeral-storage': '95Gi' },
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: {
        machineID: state.name,
        systemUUID: state.name,
        bootID: state.bootID,
        kernelVersion: 'sandbox',
        osImage: 'fleetdeck sandbox',
        containerRuntimeVersion: 'sandbox://1.0',
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    };
  }

  /** Removes the not-ready taint; the resourceVersion makes a concurrent change a conflict (retried). */
  private async untaint(state: NodeState, node: V1Node): Promise<void> {
    const taints = (node.spec?.taints ?? []).filter((t) => t.key !== NOT_READY_TAINT);
    try {
      state.last = await this.core.patchNode(
        {
          name: state.name,
          body: { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints } },
          fieldManager: FIELD_MANAGER,
        },
        mergePatch(),
      );
    } catch (err) {
      if (!isConflict(err)) throw err;
      this.queue.add(state.name); // changed meanwhile: read it again on the next sync
    }
  }

  private async renewLease(state: NodeState): Promise<void> {
    const name = state.name;
    const spec = { holderIdentity: name, leaseDurationSeconds: LEASE_SECONDS, renewTime: new V1MicroTime() };
    try {
      await this.coordination.patchNamespacedLease(
        { name, namespace: LEASE_NAMESPACE, body: { spec }, fieldManager: FIELD_MANAGER },
        mergePatch(),
      );
      return;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      await this.coordination.createNamespacedLease({
        namespace: LEASE_NAMESPACE,
        body: {
          metadata: {
            name,
            namespace: LEASE_NAMESPACE,
            ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: state.uid ?? '' }],
          },
          spec,
        },
        fieldManager: FIELD_MANAGER,
      });
    } catch (err) {
      if (!isConflict(err)) throw new Error(`lease ${name}: ${describeError(err)}`);
    }
  }
}

async function ignoreNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

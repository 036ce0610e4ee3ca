import { CoordinationV1Api, CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { makeClient } from '../../kube/transport/client.js';
import { ResilientWatch } from '../../kube/watch/watch.js';
import { ZONE_LABEL } from '../../kube/nodes/nodes.js';
import { ignoreNotFound, retryUntil, sleep, watchErrorLogger, type SimContext } from './context.js';
import type { ClusterNetwork } from './network.js';
import { LEASE_NAMESPACE, postStatus, renewLease, statusToReport, untaint } from './node-heartbeat.js';
import { adoptedState, newNodeState, nextOrdinal, nodeIP, ordinalOf, registerNode } from './node-registration.js';
import { KubeletServers, readKubeletTls } from './kubelet-server.js';
import { hasNotReadyTaint, isUp, nodeStatus, remember, type NodeState } from './node-status.js';
import { FAULT_ANNOTATION } from './pod-status.js';
import { PodRunner, type PodNetwork } from './pods.js';
import { WorkQueue } from './queue.js';
import { NodeReplacer, REPLACE_WHEN_DRAINED_ANNOTATION, drainedForReplacement, replacementLabels, replacementName } from './replacer.js';

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
  /** With the runtime (and its certificates): each node's kubelet API, serving container logs. */
  private readonly servers: KubeletServers | undefined;
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
    this.pods = new PodRunner(
      ctx,
      (name) => this.nodes.get(name)?.ip,
      opts.podNetwork,
      opts.network,
      (name) => this.replacer.check(name),
    );
    const tls = ctx.runtime ? readKubeletTls(ctx.runtime.dir) : undefined;
    if (ctx.runtime && !tls) ctx.log('kubelet: no kubelet serving certificate in pki/; container logs are not served');
    this.servers =
      ctx.runtime && tls
        ? new KubeletServers({ runtimeDir: ctx.runtime.dir, tls, lookup: (ns, name) => this.pods.logTarget(ns, name), log: ctx.log })
        : undefined;
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
      const ordinal = ordinalOf(n, this.ctx.cluster.index);
      if (ordinal) this.highestOrdinal = Math.max(this.highestOrdinal, ordinal);
      const adopted = adoptedState(n, this.ctx.cluster);
      if (adopted) this.nodes.set(adopted.name, adopted);
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
    await this.servers?.closeAll();
  }

  /** The loopback address of a pod (`namespace/name`) whose processes run for real, if any. */
  localAddress(podKey: string): string | undefined {
    return this.pods.localAddress(podKey);
  }

  /** The same for the pod with this pod IP (`status.podIP`), as a connection to the pod IP would reach it. */
  localAddressOfPodIP(podIP: string): string | undefined {
    for (const name of this.nodes.keys()) {
      const pod = this.pods.podsOn(name).find((p) => p.status?.podIP === podIP && p.spec?.hostNetwork !== true);
      if (pod) return this.pods.localAddress(`${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
    }
    return undefined;
  }

  /** Names of the nodes this kubelet runs, in registration order. */
  nodeNames(): string[] {
    return [...this.nodes.values()].sort((a, b) => a.ordinal - b.ordinal).map((s) => s.name);
  }

  /** True when every node reports Ready and carries no not-ready taint. */
  allReady(): boolean {
    return [...this.nodes.values()].every(isUp);
  }

  /** Waits until `allReady()` (or the given nodes are), or throws after `timeoutMs`. */
  async waitReady(timeoutMs = 60_000, names?: string[]): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const done = () => (names ? names.every((n) => isUp(this.nodes.get(n))) : this.allReady());
    while (!done()) {
      if (this.stopped) throw new Error('kubelet stopped');
      if (Date.now() > deadline) {
        const waiting = this.nodeNames().filter((n) => !isUp(this.nodes.get(n)));
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
    void this.servers?.close(name);
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

  /** A new node: the next ordinal and its address (see nextOrdinal), named `<cluster>-node-<ordinal>` unless `name` is given. */
  private plan(name?: string): NodeState {
    const ordinal = nextOrdinal(this.highestOrdinal, new Set([...this.nodes.values()].map((s) => s.ordinal)));
    this.highestOrdinal = Math.max(this.highestOrdinal, ordinal);
    const state = newNodeState(name ?? `${this.ctx.cluster.name}-node-${ordinal}`, ordinal, nodeIP(this.ctx.cluster.index, ordinal));
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
    if (!state?.uid || state.uid !== node.metadata?.uid) return;
    remember(state, node);
    // A Node annotated with the fault NotReady reports Ready=False (KubeletNotReady) until the annotation goes.
    this.setReady(state.name, node.metadata?.annotations?.[FAULT_ANNOTATION] !== 'NotReady');
    if (state.ready && hasNotReadyTaint(node)) this.queue.add(state.name);
    this.replacer.check(state.name);
  }

  private observeDeleted(node: V1Node): void {
    const state = this.nodes.get(node.metadata?.name ?? '');
    if (!state?.uid || state.uid !== node.metadata?.uid) return;
    this.forgetDeleted(state);
  }

  private forgetDeleted(state: NodeState): void {
    if (this.nodes.get(state.name) !== state) return;
    this.nodes.delete(state.name);
    this.queue.forget(state.name);
    void this.servers?.close(state.name);
    this.ctx.log(`kubelet: node ${state.name} was deleted; not registering it again`);
  }

  /**
   * Register if needed, post the status when it changed (or is STATUS_REPORT_MS old), clear the
   * not-ready taint, renew the Lease (the heartbeat).
   */
  private async sync(name: string): Promise<void> {
    const state = this.nodes.get(name);
    if (!state || this.stopped) return;
    if (this.servers && state.kubeletPort === undefined) {
      state.kubeletPort = await this.servers.open(state.name, state.ip);
      // Removed or stopped meanwhile: its server goes too.
      if (this.nodes.get(name) !== state || this.stopped) return void this.servers.close(name);
    }
    if (!state.uid) {
      await registerNode(this.core, state, { clusterName: this.ctx.cluster.name, replaceDrained: this.replaceDrained, log: this.ctx.log });
      if (!state.uid) return;
    }
    const status = nodeStatus(state);
    const current = state.last?.metadata?.uid === state.uid ? state.last : undefined;
    if (statusToReport(current, status, state.reportedAt)) {
      const node = await postStatus(this.core, state, status);
      if (!node || node.metadata?.uid !== state.uid) return this.forgetDeleted(state);
      remember(state, node);
      state.reportedAt = Date.now();
    }
    const node = state.last!;
    if (state.ready && hasNotReadyTaint(node) && !(await untaint(this.core, state, node))) {
      // A conflict: changed meanwhile; read it now (its watch event may be late) and try again.
      const fresh = await this.core.readNode({ name }).catch(() => undefined);
      if (fresh?.metadata?.uid === state.uid) remember(state, fresh);
      this.queue.add(state.name);
    }
    await renewLease(this.coordination, state);
  }
}

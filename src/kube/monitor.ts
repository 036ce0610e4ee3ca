import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import type { ContextSink } from './sink.js';
import type { ContextWatcher, WatcherEnv, WatcherFactory } from './watcher.js';
import type { ContextInfo } from './kubeconfig.js';
import { describeError, forbiddenMessage, makeJsonClient, type JsonClient } from './client.js';
import { isCredentialsError } from './credentials.js';
import { discover, notReadyReason, serverVersion } from './discovery.js';
import { listJsonPaged } from './list.js';
import { summarizeNode, type NodeSummary } from './nodes.js';
import { ResilientWatch } from './watch.js';

/** How often an unreachable or not ready server is probed. */
const DOWN_PROBE_MS = 1_000;

export interface MonitorOptions {
  /** How often reachability and latency are measured (every second while the server is down). */
  probeIntervalMs?: number;
  /** A probe slower than this counts as unreachable. */
  probeTimeoutMs?: number;
  /** Timeout of list requests. */
  requestTimeoutMs?: number;
  now?: () => number;
}

/**
 * Watches one context and feeds the store: a light probe (GET /version) for reachability,
 * latency and version, discovery after each (re)connection, and a resilient watch on Nodes.
 * A dropped watch triggers an immediate probe, so an API server that goes away is noticed
 * at once, not at the next probe.
 */
export class ContextMonitor {
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private reachable: boolean | undefined;
  private unreachableSince: number | undefined;
  private notReadySince: number | undefined;
  /** Short requests of the probe (GET /readyz), on the context's pooled connection. */
  private readonly probeClient: JsonClient;
  private discovered = false;
  private stopped = false;
  private readonly nodes: ResilientWatch<V1Node, NodeSummary>;
  private readonly watchers: ContextWatcher[];

  constructor(
    readonly info: ContextInfo,
    private readonly kc: KubeConfig,
    private readonly batch: ContextSink,
    opts: MonitorOptions = {},
    watchers: WatcherFactory[] = [],
  ) {
    this.probeIntervalMs = opts.probeIntervalMs ?? 5_000;
    this.probeTimeoutMs = opts.probeTimeoutMs ?? 3_000;
    this.now = opts.now ?? Date.now;
    const client = makeJsonClient(kc, opts.requestTimeoutMs ?? 15_000);
    this.probeClient = makeJsonClient(kc, this.probeTimeoutMs);
    const name = info.name;
    this.nodes = new ResilientWatch<V1Node, NodeSummary>({
      kc,
      path: '/api/v1/nodes',
      // Page by page, each page summarised as it arrives: 5,000 nodes never sit in memory whole.
      list: () => listJsonPaged(client, '/api/v1/nodes', {}, summarizeNode, { watchCache: true }),
      onList: (items) => batch.resetNodes(name, items),
      onEvent: (type, node) => {
        if (type === 'DELETED') batch.deleteNode(name, node.metadata?.name ?? '');
        else batch.upsertNode(name, summarizeNode(node));
      },
      onError: (message, { forbidden }) => {
        if (forbidden) batch.nodesForbidden(name, forbiddenMessage('nodes', message));
        else void this.probe();
      },
      onDisconnect: () => void this.probe(),
    });
    const env: WatcherEnv = {
      name,
      kc,
      sink: batch,
      requestTimeoutMs: opts.requestTimeoutMs ?? 15_000,
      onDisconnect: () => void this.probe(),
    };
    this.watchers = watchers.map((make) => make(env));
  }

  start(): void {
    this.stopped = false;
    void this.probe();
    this.nodes.start();
    for (const w of this.watchers) w.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([this.nodes.stop(), ...this.watchers.map((w) => w.stop()), this.probing]);
  }

  /** Measure now (coalesces with a probe already under way). */
  probe(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.probing ??= this.probeOnce().finally(() => {
      this.probing = undefined;
      if (this.timer) clearTimeout(this.timer);
      if (!this.stopped) {
        // While it is down, a second apart: it is marked back within about a second.
        const down = this.reachable === false || this.notReadySince !== undefined;
        this.timer = setTimeout(() => void this.probe(), down ? Math.min(DOWN_PROBE_MS, this.probeIntervalMs) : this.probeIntervalMs);
        this.timer.unref?.();
      }
    });
    return this.probing;
  }

  private async probeOnce(): Promise<void> {
    const started = performance.now();
    try {
      const d = this.discovered ? undefined : await discover(this.kc, this.probeTimeoutMs);
      const v = d?.version ?? (await serverVersion(this.kc, this.probeTimeoutMs));
      const latencyMs = Math.round(performance.now() - started);
      const notReady = await this.readiness();
      if (this.stopped) return;
      const wasDown = this.reachable === false || this.notReadySince !== undefined;
      this.reachable = true;
      this.unreachableSince = undefined;
      this.notReadySince = notReady === undefined ? undefined : (this.notReadySince ?? this.now());
      this.batch.patchContext(this.info.name, {
        reachability: 'reachable',
        latencyMs,
        version: v,
        lastSuccessAt: this.now(),
        lastError: undefined,
        hint: undefined,
        unreachableSince: undefined,
        notReady,
        notReadySince: this.notReadySince,
        ...(d ? { apiGroups: d.apiGroups, evictionVersion: d.evictionVersion } : {}),
      });
      if (d) this.discovered = true;
      // Back (reachable and ready): the watches waiting out a backoff try again now.
      if (wasDown && notReady === undefined) {
        this.nodes.retryNow();
        for (const w of this.watchers) w.retryNow();
      }
    } catch (err) {
      if (this.stopped) return;
      this.reachable = false;
      if (isCredentialsError(err)) {
        // Nothing was sent: the server may be fine, the kubeconfig's user is not.
        this.discovered = false;
        this.unreachableSince = undefined;
        this.notReadySince = undefined;
        this.batch.patchContext(this.info.name, {
          reachability: 'credentials',
          lastError: err.message,
          hint: err.hint,
          unreachableSince: undefined,
          notReady: undefined,
          notReadySince: undefined,
        });
        return;
      }
      // A server that comes back may have been upgraded: discover again then.
      this.discovered = false;
      this.unreachableSince ??= this.now();
      this.notReadySince = undefined;
      this.batch.patchContext(this.info.name, {
        reachability: 'unreachable',
        lastError: describeError(err),
        hint: undefined,
        unreachableSince: this.unreachableSince,
        notReady: undefined,
        notReadySince: undefined,
      });
    }
  }

  /** Why the server says it cannot serve (its /readyz), or undefined when it is ready. */
  private async readiness(): Promise<string | undefined> {
    try {
      return await notReadyReason(this.probeClient);
    } catch (err) {
      return `/readyz: ${describeError(err)}`;
    }
  }
}

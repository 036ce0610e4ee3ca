import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import type { ContextSink } from './sink.js';
import type { ContextWatcher, WatcherEnv, WatcherFactory } from '../watch/watcher.js';
import type { ContextInfo } from '../config/kubeconfig.js';
import { describeError, forbiddenMessage, makeJsonClient, type JsonClient } from '../transport/client.js';
import { isCredentialsError } from '../transport/credentials.js';
import { discover, notReadyReason, serverVersion } from '../api/discovery.js';
import { listProtoPaged } from '../watch/list.js';
import { decodeNode } from '../protobuf/node.js';
import { summarizeNode, type NodeSummary } from '../nodes/nodes.js';
import { ResilientWatch } from '../watch/watch.js';

/** How often an unreachable or not ready server is probed. */
const DOWN_PROBE_MS = 1_000;
/**
 * A context whose watches deliver events is not probed, but its latency is measured again
 * after this long; a quiet one is probed every interval. A new round trip (and last success)
 * reaches the store when the fleet's one timer publishes them all (`publishLatency`), this
 * often: one frame a minute for the whole fleet, not one per probe.
 */
export const LATENCY_REFRESH_MS = 60_000;

/**
 * When the probe timer fires: 'probe', or how long to wait before looking again. A context up
 * and ready whose watches delivered an event within the interval proves itself; it is probed
 * one interval after its last event, or when its latency is `LATENCY_REFRESH_MS` old.
 */
export function probeDecision(s: { up: boolean; quietMs: number; sinceProbeMs: number; intervalMs: number }): 'probe' | number {
  if (!s.up || s.quietMs >= s.intervalMs || s.sinceProbeMs >= LATENCY_REFRESH_MS) return 'probe';
  return Math.max(1, Math.min(s.intervalMs - s.quietMs, LATENCY_REFRESH_MS - s.sinceProbeMs));
}

export interface MonitorOptions {
  /** How often reachability and latency are measured (every second while the server is down). */
  probeIntervalMs?: number;
  /** A probe slower than this counts as unreachable. */
  probeTimeoutMs?: number;
  /** Timeout of list requests. */
  requestTimeoutMs?: number;
  /** Only the initial lists, no watches after them: a one-shot report (`fleetdeck status`). */
  listOnly?: boolean;
  now?: () => number;
  /** The clock round trips are measured on (default performance.now). */
  clock?: () => number;
}

/**
 * Watches one context and feeds the store: a light probe (GET /readyz, with GET /version after
 * each (re)connection) for reachability, readiness, latency and version, discovery after each
 * (re)connection, and a resilient watch on Nodes. A dropped watch triggers an immediate probe,
 * so an API server that goes away is noticed at once, not at the next probe. The watches' own
 * events prove the server answers and is ready (a write reached etcd): while they arrive, the
 * context is not probed; a probe comes one interval after the last of them.
 */
export class ContextMonitor {
  private readonly probeIntervalMs: number;
  private readonly probeTimeoutMs: number;
  private readonly now: () => number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  private reachable: boolean | undefined;
  private unreachableSince: number | undefined;
  private notReadySince: number | undefined;
  /** Short requests of the probe (GET /readyz), on the context's pooled connection. */
  private readonly probeClient: JsonClient;
  private discovered = false;
  /** GET /version is asked again after a (re)connection: a restarted server may be another version. */
  private versionDue = true;
  private version: string | undefined;
  /** performance.now() of the last watch event, of the last probe, of the last latency published. */
  private lastHeard = Number.NEGATIVE_INFINITY;
  private lastProbe = Number.NEGATIVE_INFINITY;
  /** The last probe's round trip and time, until published. */
  private measured: { latencyMs: number; at: number } | undefined;
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
    this.clock = opts.clock ?? (() => performance.now());
    const client = makeJsonClient(kc, opts.requestTimeoutMs ?? 15_000);
    this.probeClient = makeJsonClient(kc, this.probeTimeoutMs);
    const name = info.name;
    this.nodes = new ResilientWatch<V1Node, NodeSummary>({
      kc,
      path: '/api/v1/nodes',
      listOnly: opts.listOnly,
      // Page by page, each page summarised as it arrives: 5,000 nodes never sit in memory whole.
      list: () =>
        listProtoPaged(client, '/api/v1/nodes', {}, (b, s, e) => summarizeNode(decodeNode(b, s, e)), summarizeNode, { watchCache: true }),
      onList: (items) => batch.resetNodes(name, items),
      // A kubelet's heartbeat changes nothing fleetdeck shows: it only proves the server alive.
      onUnchanged: () => this.heard(),
      onEvent: (type, node) => {
        this.heard();
        if (type === 'DELETED') batch.deleteNode(name, node.metadata?.name ?? '');
        else batch.upsertNode(name, summarizeNode(node));
      },
      onError: (message, { forbidden }) => {
        if (forbidden) batch.nodesForbidden(name, forbiddenMessage('nodes', message));
        else this.disconnected();
      },
      onDisconnect: () => this.disconnected(),
      // A server shutting down ends its watches first, then may accept and not answer for a while.
      onClosed: () => void this.probe(),
    });
    const env: WatcherEnv = {
      name,
      kc,
      sink: batch,
      requestTimeoutMs: opts.requestTimeoutMs ?? 15_000,
      onDisconnect: () => this.disconnected(),
      onActivity: () => this.heard(),
      listOnly: opts.listOnly,
    };
    this.watchers = watchers.map((make) => make(env));
  }

  /**
   * The lists go out first, the pods' (the slowest answer) before all: on a new HTTP/2 connection
   * only the first request is sent before the server's settings arrive, the others after them.
   */
  start(): void {
    this.stopped = false;
    for (const w of this.watchers) w.start();
    this.nodes.start();
    void this.probe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([this.nodes.stop(), ...this.watchers.map((w) => w.stop()), this.probing]);
  }

  /** The round trip of the last probe, if it has not reached the store yet (the fleet's timer calls this). */
  publishLatency(): void {
    if (!this.measured || this.reachable !== true) return;
    this.batch.patchContext(this.info.name, { latencyMs: this.measured.latencyMs, lastSuccessAt: this.measured.at });
    this.measured = undefined;
  }

  /** A watch delivered an event: the server answers and its storage works. */
  heard(): void {
    this.lastHeard = performance.now();
  }

  /** A watch dropped: probe at once, the version too (the server may have restarted). */
  private disconnected(): void {
    this.versionDue = true;
    void this.probe();
  }

  private get down(): boolean {
    return this.reachable === false || this.notReadySince !== undefined;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref?.();
  }

  /** The probe timer: probes unless the watches were heard within the interval (and the latency is recent). */
  private tick(): void {
    const now = performance.now();
    const next = probeDecision({
      up: this.reachable === true && !this.down,
      quietMs: now - this.lastHeard,
      sinceProbeMs: now - this.lastProbe,
      intervalMs: this.probeIntervalMs,
    });
    if (next === 'probe') void this.probe();
    else this.schedule(next);
  }

  /** Measure now (coalesces with a probe already under way). */
  probe(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.probing ??= this.probeOnce().finally(() => {
      this.probing = undefined;
      // While it is down, a second apart: it is marked back within about a second.
      this.schedule(this.down ? Math.min(DOWN_PROBE_MS, this.probeIntervalMs) : this.probeIntervalMs);
    });
    return this.probing;
  }

  /**
   * One probe. The latency is the round trip of one GET /readyz on the context's pooled
   * connection: after a (re)connection, the /readyz that follows discovery and /version, so the
   * TLS handshake and the discovery requests are never counted as latency.
   */
  private async probeOnce(): Promise<void> {
    this.lastProbe = performance.now();
    try {
      const full = this.versionDue || !this.discovered || this.down;
      let d: Awaited<ReturnType<typeof discover>> | undefined;
      if (full) {
        d = this.discovered ? undefined : await discover(this.kc, this.probeTimeoutMs);
        this.version = d?.version ?? (await serverVersion(this.kc, this.probeTimeoutMs));
        this.versionDue = false;
      }
      const started = this.clock();
      // Reachable a moment ago: /readyz alone says whether it still answers, and is ready.
      // After a (re)connection it cannot make the server unreachable: its failure is the reason.
      const notReady = full ? await this.readiness() : await notReadyReason(this.probeClient);
      const latencyMs = Math.round(this.clock() - started);
      if (this.stopped) return;
      const wasDown = this.down || this.reachable === undefined;
      this.reachable = true;
      this.unreachableSince = undefined;
      this.notReadySince = notReady === undefined ? undefined : (this.notReadySince ?? this.now());
      // A new round trip alone waits for publishLatency: unchanged fields cause no store update.
      const news = wasDown || full;
      this.measured = news ? undefined : { latencyMs, at: this.now() };
      this.batch.patchContext(this.info.name, {
        reachability: 'reachable',
        ...(news ? { latencyMs, lastSuccessAt: this.now() } : {}),
        version: this.version,
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
      this.versionDue = true;
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

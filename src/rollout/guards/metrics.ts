/**
 * The runner's Prometheus metrics: its nodes by state, how long each node took, what holds it,
 * its gates' blocks and its failures, in a registry of its own (with the process's standard
 * metrics), served on /metrics by a small HTTP server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RolloutPhase } from '../types.js';
import type { HoldKind } from './types.js';

/** The port the metrics are served on unless told. */
export const METRICS_PORT = 9464;

/** The node states of `fleetdeck_rollout_nodes`: a node's phases, and skipped. */
export const NODE_STATES = ['waiting', 'cordoned', 'draining', 'replacing', 'validating', 'done', 'failed', 'skipped'] as const;
export const HOLD_GATES: readonly HoldKind[] = ['window', 'budget', 'alerts', 'pods', 'soak', 'cluster'];
export const ROLLOUT_PHASES: readonly RolloutPhase[] = ['Pending', 'Running', 'Paused', 'Completed', 'Aborted', 'Failed'];
export const FAILURE_REASONS = ['drain', 'gate', 'deadline', 'other'] as const;
export type DurationPhase = 'drain' | 'replace' | 'gate' | 'total';
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Seconds: a node takes minutes (a drain) to an hour (a replacement that boots slowly). */
export const DURATION_BUCKETS = [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600];

export interface RolloutMetrics {
  readonly registry: Registry;
  /** Sets every state's count (0 when absent from `counts`). */
  setNodes(rollout: string, counts: Partial<Record<string, number>>): void;
  observeNode(rollout: string, phase: DurationPhase, seconds: number): void;
  gateBlocked(rollout: string, gate: string): void;
  /** 1 for the gate that holds the rollout, 0 for the others (all 0 when none holds). */
  setHeld(rollout: string, gate: string | undefined): void;
  failure(rollout: string, reason: FailureReason): void;
  /** 1 for the rollout's phase, 0 for the others. */
  setPhase(rollout: string, phase: RolloutPhase): void;
}

/**
 * The runner's metrics in a registry of their own (never the global one). The process's standard
 * metrics (`process_*`, `nodejs_*`, unprefixed as everywhere) are in it too unless `defaultMetrics` is false.
 */
export function createRolloutMetrics(opts: { defaultMetrics?: boolean } = {}): RolloutMetrics {
  const registry = new Registry();
  if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const nodes = new Gauge({
    name: 'fleetdeck_rollout_nodes',
    help: "The rollout's nodes by state.",
    labelNames: ['rollout', 'state'],
    registers,
  });
  const duration = new Histogram({
    name: 'fleetdeck_rollout_node_duration_seconds',
    help: 'How long a node took, by phase: its drain, its replacement, its health gate, and in all.',
    labelNames: ['rollout', 'phase'],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const blocks = new Counter({
    name: 'fleetdeck_rollout_gate_blocks_total',
    help: "Times a gate held the rollout when it checked (the window, the budget, alerts, pods, the soak, the cluster's other rollout).",
    labelNames: ['rollout', 'gate'],
    registers,
  });
  const held = new Gauge({
    name: 'fleetdeck_rollout_held',
    help: 'The gate that holds the rollout now: 1 for it, 0 for the others.',
    labelNames: ['rollout', 'gate'],
    registers,
  });
  const failures = new Counter({
    name: 'fleetdeck_rollout_failures_total',
    help: "The rollout's failures, by reason.",
    labelNames: ['rollout', 'reason'],
    registers,
  });
  const phase = new Gauge({
    name: 'fleetdeck_rollout_phase',
    help: "The rollout's phase: 1 for it, 0 for the others.",
    labelNames: ['rollout', 'phase'],
    registers,
  });

  const seen = new Set<string>();
  /** Counters start at 0 for every known label, so that rate() and increase() see their first step. */
  const touch = (rollout: string): void => {
    if (seen.has(rollout)) return;
    seen.add(rollout);
    for (const reason of FAILURE_REASONS) failures.inc({ rollout, reason }, 0);
    for (const gate of HOLD_GATES) blocks.inc({ rollout, gate }, 0);
  };

  return {
    registry,
    setNodes(rollout, counts) {
      touch(rollout);
      for (const state of NODE_STATES) nodes.set({ rollout, state }, counts[state] ?? 0);
    },
    observeNode(rollout, p, seconds) {
      touch(rollout);
      if (Number.isFinite(seconds) && seconds >= 0) duration.observe({ rollout, phase: p }, seconds);
    },
    gateBlocked(rollout, gate) {
      touch(rollout);
      blocks.inc({ rollout, gate });
    },
    setHeld(rollout, gate) {
      touch(rollout);
      for (const g of HOLD_GATES) held.set({ rollout, gate: g }, g === gate ? 1 : 0);
      if (gate !== undefined && !(HOLD_GATES as readonly string[]).includes(gate)) held.set({ rollout, gate }, 1);
    },
    failure(rollout, reason) {
      touch(rollout);
      failures.inc({ rollout, reason });
    },
    setPhase(rollout, p) {
      touch(rollout);
      for (const q of ROLLOUT_PHASES) phase.set({ rollout, phase: q }, q === p ? 1 : 0);
    },
  };
}

/** The Prometheus scrape annotations of a pod serving the metrics on `port`. */
export function scrapeAnnotations(port: number): Record<string, string> {
  return { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' };
}

export interface MetricsServer {
  /** The port it listens on (the one picked when asked for 0). */
  port: number;
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/** Serves GET /metrics (the registry's exposition) and /healthz; anything else is 404. */
export function serveMetrics(metrics: Pick<RolloutMetrics, 'registry'>, opts: { port: number; host?: string }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    answer(metrics.registry, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function answer(registry: Registry, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let path: string;
  try {
    path = new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('bad request\n');
    return;
  }
  const known = path === '/metrics' || path === '/healthz';
  if (known && req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  if (path === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok\n');
    return;
  }
  if (path !== '/metrics') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are on /metrics\n');
    return;
  }
  try {
    const text = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType }).end(text);
  } catch (err) {
    res
      .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`cannot collect the metrics: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

import { Agent, get, type IncomingMessage, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { register } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRolloutMetrics,
  METRICS_PORT,
  type MetricsServer,
  scrapeAnnotations,
  serveMetrics,
} from '../../../src/rollout/guards/metrics.js';

const servers: MetricsServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(m: ReturnType<typeof createRolloutMetrics>): Promise<string> {
  const s = await serveMetrics(m, { port: 0, host: '127.0.0.1' });
  servers.push(s);
  return `http://127.0.0.1:${s.port}`;
}

/** The exposition's sample lines of one metric (no HELP/TYPE). */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}

describe('createRolloutMetrics', () => {
  it('counts nodes in every state, 0 for the states not given', async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    m.setNodes('r1', { done: 2, draining: 1, waiting: 4 });
    m.setNodes('r1', { done: 3, waiting: 4 });
    const text = await (await fetch(`${await serve(m)}/metrics`)).text();
    expect(samples(text, 'fleetdeck_rollout_nodes')).toEqual([
      'fleetdeck_rollout_nodes{rollout="r1",state="waiting"} 4',
      'fleetdeck_rollout_nodes{rollout="r1",state="cordoned"} 0',
      'fleetdeck_rollout_nodes{rollout="r1",state="draining"} 0',
      'fleetdeck_rollout_nodes{rollout="r1",state="replacing"} 0',
      'fleetdeck_rollout_nodes{rollout="r1",state="validating"} 0',
      'fleetdeck_rollout_nodes{rollout="r1",state="done"} 3',
      'fleetdeck_rollout_nodes{rollout="r1",state="failed"} 0',
      'fleetdeck_rollout_nodes{rollout="r1",state="skipped"} 0',
    ]);
    expect(text).toContain('# TYPE fleetdeck_rollout_nodes gauge');
  });

  it('observes node durations in buckets of minutes', async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    m.observeNode('r1', 'drain', 42);
    m.observeNode('r1', 'drain', 700);
    m.observeNode('r1', 'total', 4000);
    const text = await m.registry.metrics();
    const drain = samples(text, 'fleetdeck_rollout_node_duration_seconds_bucket').filter((l) => l.includes('phase="drain"'));
    expect(drain.map((l) => l.replace(/^.*le="([^"]+)".* (\d+)$/, '$1=$2'))).toEqual([
      '5=0',
      '15=0',
      '30=0',
      '60=1',
      '120=1',
      '300=1',
      '600=1',
      '1200=2',
      '1800=2',
      '3600=2',
      '+Inf=2',
    ]);
    expect(text).toContain('fleetdeck_rollout_node_duration_seconds_sum{rollout="r1",phase="drain"} 742');
    expect(text).toContain('fleetdeck_rollout_node_duration_seconds_bucket{le="3600",rollout="r1",phase="total"} 0');
    expect(text).toContain('fleetdeck_rollout_node_duration_seconds_count{rollout="r1",phase="total"} 1');
  });

  it('holds one gate at a time, counts blocks and failures from 0, and keeps the phase one-hot', async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    m.setPhase('r1', 'Running');
    m.setHeld('r1', 'alerts');
    m.gateBlocked('r1', 'alerts');
    m.gateBlocked('r1', 'alerts');
    m.setHeld('r1', 'window');
    m.failure('r1', 'deadline');
    m.setPhase('r1', 'Paused');
    let text = await m.registry.metrics();
    expect(samples(text, 'fleetdeck_rollout_held').filter((l) => l.endsWith(' 1'))).toEqual([
      'fleetdeck_rollout_held{rollout="r1",gate="window"} 1',
    ]);
    expect(samples(text, 'fleetdeck_rollout_held')).toHaveLength(6);
    expect(samples(text, 'fleetdeck_rollout_gate_blocks_total')).toContain(
      'fleetdeck_rollout_gate_blocks_total{rollout="r1",gate="alerts"} 2',
    );
    expect(samples(text, 'fleetdeck_rollout_gate_blocks_total')).toContain(
      'fleetdeck_rollout_gate_blocks_total{rollout="r1",gate="budget"} 0',
    );
    expect(samples(text, 'fleetdeck_rollout_failures_total')).toEqual([
      'fleetdeck_rollout_failures_total{rollout="r1",reason="drain"} 0',
      'fleetdeck_rollout_failures_total{rollout="r1",reason="gate"} 0',
      'fleetdeck_rollout_failures_total{rollout="r1",reason="deadline"} 1',
      'fleetdeck_rollout_failures_total{rollout="r1",reason="other"} 0',
    ]);
    expect(samples(text, 'fleetdeck_rollout_phase')).toEqual([
      'fleetdeck_rollout_phase{rollout="r1",phase="Pending"} 0',
      'fleetdeck_rollout_phase{rollout="r1",phase="Running"} 0',
      'fleetdeck_rollout_phase{rollout="r1",phase="Paused"} 1',
      'fleetdeck_rollout_phase{rollout="r1",phase="Completed"} 0',
      'fleetdeck_rollout_phase{rollout="r1",phase="Aborted"} 0',
      'fleetdeck_rollout_phase{rollout="r1",phase="Failed"} 0',
    ]);
    m.setHeld('r1', undefined);
    text = await m.registry.metrics();
    expect(samples(text, 'fleetdeck_rollout_held').filter((l) => !l.endsWith(' 0'))).toEqual([]);
  });

  it("keeps each rollout's series apart, in a registry of its own with the standard process metrics", async () => {
    const a = createRolloutMetrics();
    const b = createRolloutMetrics();
    a.setPhase('r1', 'Completed');
    b.setPhase('r2', 'Failed');
    const text = await a.registry.metrics();
    expect(text).toContain('fleetdeck_rollout_phase{rollout="r1",phase="Completed"} 1');
    expect(text).not.toContain('rollout="r2"');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
    expect(await register.getSingleMetric('fleetdeck_rollout_phase')).toBeUndefined();
    expect(await createRolloutMetrics({ defaultMetrics: false }).registry.metrics()).not.toContain('process_');
  });
});

describe('serveMetrics', () => {
  it("serves /metrics in the registry's content type, /healthz, and 404 elsewhere", async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    m.setNodes('r1', { done: 2 });
    const url = await serve(m);
    const res = await fetch(`${url}/metrics?debug=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(m.registry.contentType);
    expect(await res.text()).toContain('fleetdeck_rollout_nodes{rollout="r1",state="done"} 2\n');
    const health = await fetch(`${url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok\n']);
    const other = await fetch(`${url}/metricsx`);
    expect(other.status).toBe(404);
    await other.body?.cancel();
    const post = await fetch(`${url}/metrics`, { method: 'POST', body: 'x' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    await post.body?.cancel();
  });

  it('answers 400 to a request path that is not a URL, and goes on serving', async () => {
    const url = await serve(createRolloutMetrics({ defaultMetrics: false }));
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: Number(new URL(url).port), path: '//a:b' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('picks a free port when asked for 0, and refuses a port in use', async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    const first = await serveMetrics(m, { port: 0, host: '127.0.0.1' });
    servers.push(first);
    expect(first.port).toBeGreaterThan(0);
    await expect(serveMetrics(m, { port: first.port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('closes with a keep-alive client still connected', async () => {
    const m = createRolloutMetrics({ defaultMetrics: false });
    const s = await serveMetrics(m, { port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true });
    try {
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        get({ host: '127.0.0.1', port: s.port, path: '/metrics', agent }, resolve).on('error', reject);
      });
      const socket = res.socket;
      const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      res.resume();
      await new Promise((resolve) => res.once('end', resolve));
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('keep-alive');
      await s.close();
      await socketClosed;
      expect(socket.destroyed).toBe(true);
      await expect(fetch(`http://127.0.0.1:${s.port}/healthz`)).rejects.toThrow('fetch failed');
    } finally {
      agent.destroy();
    }
  });

  it('closes with a client in the middle of a request', async () => {
    const s = await serveMetrics(createRolloutMetrics({ defaultMetrics: false }), { port: 0, host: '127.0.0.1' });
    const socket = connect(s.port, '127.0.0.1');
    // The server resets it: what the client reads then is no matter here.
    socket.on('error', () => {});
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Headers not finished: the connection is busy, not idle.
    socket.write('GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await s.close();
    await socketClosed;
    expect(socket.destroyed).toBe(true);
  });

  it('names the default port and the scrape annotations', () => {
    expect(METRICS_PORT).toBe(9464);
    expect(scrapeAnnotations(9464)).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    });
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertsEndpoint, checkAlerts, validateAlertGate } from '../../../src/rollout/guards/alerts.js';
import type { AlertGate } from '../../../src/rollout/guards/types.js';

/** What the fake server answers: a status and a body (an object is sent as JSON). */
type Reply = { status: number; body: unknown };

let server: Server;
let base: string;
let reply: (req: IncomingMessage) => Reply | 'hang';
const seen: { url: string; authorization?: string }[] = [];
/** Resolved when a request arrives (for the test that aborts a hanging read). */
let arrived: () => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    arrived();
    const r = reply(req);
    if (r === 'hang') return;
    const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
});

/** Prometheus's GET /api/v1/alerts, as its HTTP API documents it. */
function prometheusBody(alerts: [name: string, state: 'firing' | 'pending', labels?: Record<string, string>][]) {
  return {
    status: 'success',
    data: {
      alerts: alerts.map(([alertname, state, labels]) => ({
        labels: { alertname, severity: 'critical', ...labels },
        annotations: { summary: `${alertname} is on` },
        state,
        activeAt: '2024-05-01T10:00:00.000000000Z',
        value: '1e+00',
      })),
    },
  };
}

/** Alertmanager's GET /api/v2/alerts: a list of gettableAlert. */
function alertmanagerBody(alerts: [name: string, state: 'active' | 'suppressed' | 'unprocessed'][]) {
  return alerts.map(([alertname, state], i) => ({
    annotations: { summary: `${alertname} is on` },
    endsAt: '2024-05-01T11:00:00.000Z',
    fingerprint: `375eab7b5989250${i}`,
    receivers: [{ name: 'team-ops' }],
    startsAt: '2024-05-01T10:00:00.000Z',
    updatedAt: '2024-05-01T10:05:00.000Z',
    generatorURL: 'http://prometheus:9090/graph?g0.expr=up+%3D%3D+0',
    status: { state, silencedBy: state === 'suppressed' ? ['0f3c3a1e'] : [], inhibitedBy: [], mutedBy: [] },
    labels: { alertname, namespace: 'kube-system' },
  }));
}

function gate(g: Partial<AlertGate> = {}): AlertGate {
  return { url: base, api: 'prometheus', firingOnly: true, ...g };
}

describe('checkAlerts against Prometheus', () => {
  it('holds on firing alerts, reading /api/v1/alerts under a path prefix with a trailing slash', async () => {
    reply = () => ({
      status: 200,
      body: prometheusBody([
        ['TargetDown', 'firing', { job: 'api' }],
        ['NodeNotReady', 'firing'],
      ]),
    });
    const r = await checkAlerts(gate({ url: `${base}/prometheus/` }));
    expect(seen.map((s) => s.url)).toEqual(['/prometheus/api/v1/alerts']);
    expect(r.ok).toBe(false);
    expect(r.text).toBe(`held by 2 firing alerts: NodeNotReady, TargetDown (Prometheus ${base}/prometheus)`);
    expect(r.blocking[0]).toEqual({
      name: 'TargetDown',
      state: 'firing',
      labels: { alertname: 'TargetDown', severity: 'critical', job: 'api' },
    });
  });

  it('lets pending alerts through when firingOnly, and holds on them when not', async () => {
    reply = () => ({ status: 200, body: prometheusBody([['DiskFilling', 'pending']]) });
    expect(await checkAlerts(gate())).toEqual({ ok: true, blocking: [], text: `no firing alert (Prometheus ${base})` });
    const all = await checkAlerts(gate({ firingOnly: false }));
    expect(all.ok).toBe(false);
    expect(all.text).toBe(`held by 1 alert: DiskFilling (pending) (Prometheus ${base})`);
  });

  it("ignores alerts whose name matches `ignore` (kured's filter), and with `match` holds only on matching ones", async () => {
    reply = () => ({
      status: 200,
      body: prometheusBody([
        ['Watchdog', 'firing'],
        ['InfoInhibitor', 'firing'],
        ['KubeNodeNotReady', 'firing'],
      ]),
    });
    const ignored = await checkAlerts(gate({ ignore: '^(Watchdog|InfoInhibitor)$' }));
    expect(ignored.blocking.map((a) => a.name)).toEqual(['KubeNodeNotReady']);
    expect(await checkAlerts(gate({ ignore: 'Watchdog|Info|Kube' }))).toMatchObject({ ok: true, blocking: [] });
    const matched = await checkAlerts(gate({ match: '^Kube' }));
    expect(matched.text).toBe(`held by 1 firing alert: KubeNodeNotReady (Prometheus ${base})`);
    expect(await checkAlerts(gate({ match: 'Kube', ignore: 'NotReady' }))).toMatchObject({ ok: true });
  });

  it('names at most five distinct alerts, sorted, counting repeats, then "and N more"', async () => {
    const names = ['G', 'F', 'E', 'D', 'C', 'B', 'A'];
    reply = () => ({ status: 200, body: prometheusBody([...names.map((n) => [n, 'firing'] as [string, 'firing']), ['A', 'firing']]) });
    const r = await checkAlerts(gate());
    expect(r.blocking).toHaveLength(8);
    expect(r.text).toBe(`held by 8 firing alerts: A ×2, B, C, D, E and 2 more (Prometheus ${base})`);
  });

  it('sends credentials in the URL as basic auth and never prints them', async () => {
    reply = () => ({ status: 500, body: { status: 'error', errorType: 'internal', error: 'rule manager not ready' } });
    const r = await checkAlerts(gate({ url: `http://ops:s3cret@127.0.0.1:${new URL(base).port}` }));
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`);
    expect(r.text).toBe(`cannot read alerts from ${base}/api/v1/alerts: HTTP 500 Internal Server Error: rule manager not ready`);
    expect(r.text).not.toContain('s3cret');
  });
});

describe('checkAlerts against Alertmanager', () => {
  it('asks /api/v2/alerts for active, unsilenced, uninhibited alerts when firingOnly', async () => {
    reply = () => ({ status: 200, body: alertmanagerBody([['KubePodCrashLooping', 'active']]) });
    const r = await checkAlerts(gate({ api: 'alertmanager', url: `${base}/alertmanager` }));
    expect(seen.map((s) => s.url)).toEqual(['/alertmanager/api/v2/alerts?active=true&silenced=false&inhibited=false']);
    expect(r).toEqual({
      ok: false,
      blocking: [{ name: 'KubePodCrashLooping', state: 'active', labels: { alertname: 'KubePodCrashLooping', namespace: 'kube-system' } }],
      text: `held by 1 firing alert: KubePodCrashLooping (Alertmanager ${base}/alertmanager)`,
    });
  });

  it('holds on suppressed alerts only when not firingOnly (and drops them even if the server sends them)', async () => {
    reply = () => ({ status: 200, body: alertmanagerBody([['NodeDiskPressure', 'suppressed']]) });
    expect(await checkAlerts(gate({ api: 'alertmanager' }))).toEqual({
      ok: true,
      blocking: [],
      text: `no firing alert (Alertmanager ${base})`,
    });
    const all = await checkAlerts(gate({ api: 'alertmanager', firingOnly: false }));
    expect(seen[1]?.url).toBe('/api/v2/alerts?active=true');
    expect(all.text).toBe(`held by 1 alert: NodeDiskPressure (suppressed) (Alertmanager ${base})`);
  });

  it('is ok with no alerts at all', async () => {
    reply = () => ({ status: 200, body: [] });
    expect(await checkAlerts(gate({ api: 'alertmanager' }))).toEqual({
      ok: true,
      blocking: [],
      text: `no firing alert (Alertmanager ${base})`,
    });
  });
});

describe('checkAlerts fails closed', () => {
  it('holds on an HTTP error status, naming it', async () => {
    reply = () => ({ status: 503, body: 'upstream connect error\nretry later' });
    const r = await checkAlerts(gate({ api: 'alertmanager' }));
    expect(r).toEqual({
      ok: false,
      blocking: [],
      text: `cannot read alerts from ${base}/api/v2/alerts?active=true&silenced=false&inhibited=false: HTTP 503 Service Unavailable: upstream connect error`,
    });
  });

  it('holds on a body that is not JSON, or not the API it was told', async () => {
    reply = () => ({ status: 200, body: '<html>login</html>' });
    expect(await checkAlerts(gate())).toEqual({
      ok: false,
      blocking: [],
      text: `cannot read alerts from ${base}/api/v1/alerts: the answer is not JSON: <html>login</html>`,
    });
    reply = () => ({ status: 200, body: alertmanagerBody([]) });
    expect((await checkAlerts(gate())).text).toBe(
      `cannot read alerts from ${base}/api/v1/alerts: the answer has no data.alerts list (is this the Prometheus API?)`,
    );
    reply = () => ({ status: 200, body: prometheusBody([]) });
    expect(await checkAlerts(gate({ api: 'alertmanager' }))).toMatchObject({ ok: false, blocking: [] });
  });

  it('holds when nothing listens, with the reason on one line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await checkAlerts(gate({ url: `http://127.0.0.1:${port}/prom` }));
    expect(r.ok).toBe(false);
    expect(r.text).toBe(`cannot read alerts from http://127.0.0.1:${port}/prom/api/v1/alerts: connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    reply = () => 'hang';
    const came = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const stop = new AbortController();
    const check = checkAlerts(gate(), stop.signal);
    await came;
    stop.abort(new Error('rollout paused'));
    await expect(check).rejects.toThrow('rollout paused');
  });
});

describe('alertsEndpoint and validateAlertGate', () => {
  it('builds the endpoint with or without a trailing slash and a prefix', () => {
    expect(alertsEndpoint({ url: 'http://h:9090', api: 'prometheus', firingOnly: true }).href).toBe('http://h:9090/api/v1/alerts');
    expect(alertsEndpoint({ url: 'http://h/prometheus//', api: 'prometheus', firingOnly: false }).href).toBe(
      'http://h/prometheus/api/v1/alerts',
    );
    expect(alertsEndpoint({ url: 'https://h/am/', api: 'alertmanager', firingOnly: false }).href).toBe(
      'https://h/am/api/v2/alerts?active=true',
    );
  });

  it('accepts a good gate and names the first problem of a bad one', () => {
    expect(
      validateAlertGate({ url: 'https://prom.example/prometheus', api: 'prometheus', firingOnly: true, ignore: '^Watchdog$' }),
    ).toBeUndefined();
    expect(validateAlertGate(gate({ url: 'prometheus:9090x' }))).toBe('alerts: url must be http or https, not prometheus');
    expect(validateAlertGate(gate({ url: 'not a url' }))).toBe('alerts: url "not a url" is not a URL');
    expect(validateAlertGate(gate({ api: 'thanos' as AlertGate['api'] }))).toBe(
      'alerts: api must be prometheus or alertmanager, not "thanos"',
    );
    expect(validateAlertGate(gate({ match: '(unclosed' }))).toMatch(/^alerts: match "\(unclosed" is not a regular expression: [^\n]+$/);
    expect(validateAlertGate(gate({ ignore: '[' }))).toMatch(/^alerts: ignore "\[" is not a regular expression: /);
  });

  it('holds, without asking, when the gate itself is wrong', async () => {
    await expect(checkAlerts(gate({ ignore: '[' }))).resolves.toMatchObject({
      ok: false,
      blocking: [],
      text: expect.stringMatching(/^alerts: ignore "\[" is not/),
    });
    await expect(checkAlerts(gate({ url: 'file:///etc/passwd' }))).resolves.toEqual({
      ok: false,
      blocking: [],
      text: 'alerts: url must be http or https, not file',
    });
    expect(seen).toEqual([]);
  });
});

/**
 * The sandbox's Prometheus and Alertmanager for a test file: started on the worker's fleet the
 * first time a file asks (`fleetdeck sandbox monitoring start`, which finds them running when a
 * file before started them), then reused; they stop with the fleet (`sandbox down`).
 *
 *   const m = await monitoring(sandbox());
 *   await m.waitForAlert('TargetDown', 'firing', { labels: { pod: 'web-1' } });
 */
import { readState } from '../../../src/sandbox/state.js';
import { eventually, runCli } from '../cli/cli.js';
import type { SandboxFleet } from './fleet.js';

/** An alert as Prometheus (`/api/v1/alerts`) or Alertmanager (`/api/v2/alerts`) lists it. */
export interface ListedAlert {
  labels: Record<string, string>;
  /** Prometheus: `pending` or `firing`; Alertmanager: `active`, `suppressed` or `unprocessed`. */
  state: string;
}

export interface AlertWait {
  /** Only alerts carrying these labels (e.g. the pod's `namespace` and `pod`). */
  labels?: Record<string, string>;
  timeoutMs?: number;
}

export interface Monitoring {
  /** `http://127.0.0.1:<port>`. */
  prometheusUrl: string;
  alertmanagerUrl: string;
  /**
   * Waits until the alert is firing in Prometheus and active in Alertmanager (resolves with
   * Alertmanager's), or, `resolved`, listed by neither (resolves with []).
   */
  waitForAlert(name: string, state: 'firing' | 'resolved', opts?: AlertWait): Promise<ListedAlert[]>;
  /** An instant PromQL query: the samples of its vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
}

const started = new Map<string, Promise<Monitoring>>();

/** The fleet's monitoring, started once per fleet (and per worker: a file started earlier left it running). */
export function monitoring(fleet: SandboxFleet): Promise<Monitoring> {
  let m = started.get(fleet.dir);
  if (!m) {
    m = start(fleet);
    started.set(fleet.dir, m);
    m.catch(() => started.delete(fleet.dir));
  }
  return m;
}

async function start(fleet: SandboxFleet): Promise<Monitoring> {
  const r = await runCli(['sandbox', 'monitoring', 'start', '--dir', fleet.dir], { timeoutMs: 180_000 });
  const record = readState(fleet.dir)?.monitoring;
  if (r.code !== 0 || !record) throw new Error(`sandbox monitoring start: exit ${r.code}: ${r.stderr.trim()}`);
  const prometheusUrl = record.prometheus.url;
  const alertmanagerUrl = record.alertmanager.url;
  return {
    prometheusUrl,
    alertmanagerUrl,
    waitForAlert: (name, state, opts = {}) => waitForAlert(prometheusUrl, alertmanagerUrl, name, state, opts),
    query: (promql) => query(prometheusUrl, promql),
  };
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

const matches = (a: ListedAlert, name: string, labels: Record<string, string>) =>
  a.labels.alertname === name && Object.entries(labels).every(([k, v]) => a.labels[k] === v);

/** Prometheus's pending and firing alerts. */
async function prometheusAlerts(url: string): Promise<ListedAlert[]> {
  const body = await getJson<{ data: { alerts: ListedAlert[] } }>(`${url}/api/v1/alerts`);
  return body.data.alerts;
}

/** Alertmanager's alerts that are not resolved. */
async function alertmanagerAlerts(url: string): Promise<ListedAlert[]> {
  const body = await getJson<{ labels: Record<string, string>; status: { state: string } }[]>(`${url}/api/v2/alerts`);
  return body.map((a) => ({ labels: a.labels, state: a.status.state }));
}

async function waitForAlert(
  prometheusUrl: string,
  alertmanagerUrl: string,
  name: string,
  state: 'firing' | 'resolved',
  opts: AlertWait,
): Promise<ListedAlert[]> {
  const labels = opts.labels ?? {};
  const what = `${name}${Object.keys(labels).length ? ` ${JSON.stringify(labels)}` : ''} ${state}`;
  return eventually(
    what,
    async () => {
      const [inPrometheus, inAlertmanager] = await Promise.all([prometheusAlerts(prometheusUrl), alertmanagerAlerts(alertmanagerUrl)]);
      const p = inPrometheus.filter((a) => matches(a, name, labels));
      const am = inAlertmanager.filter((a) => matches(a, name, labels));
      if (state === 'resolved') return p.length === 0 && am.length === 0 ? [] : undefined;
      return p.some((a) => a.state === 'firing') && am.some((a) => a.state === 'active') ? am : undefined;
    },
    opts.timeoutMs ?? 120_000,
    250,
  );
}

async function query(url: string, promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const body = await getJson<{ data: { result: { metric: Record<string, string>; value: [number, string] }[] } }>(
    `${url}/api/v1/query?query=${encodeURIComponent(promql)}`,
  );
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/**
 * The alert gate (kured's --prometheus-url, --alert-filter-regexp and --alert-firing-only): the
 * rollout takes no node while an alert fires. It reads Prometheus's `/api/v1/alerts` or
 * Alertmanager's `/api/v2/alerts`, and fails closed: a gate it cannot read holds the rollout.
 */
import type { AlertGate } from './types.js';

export interface BlockingAlert {
  name: string;
  /** Prometheus: `firing` or `pending`; Alertmanager: `active`, `suppressed` or `unprocessed`. */
  state: string;
  labels: Record<string, string>;
}

export interface AlertCheck {
  ok: boolean;
  blocking: BlockingAlert[];
  /** One line: why it holds, or that nothing does. */
  text: string;
}

/** How long one read of the alerts may take. */
export const ALERTS_TIMEOUT_MS = 10_000;
/** Names listed in a held line before "and N more". */
const MAX_NAMES = 5;

const API_NAMES = { prometheus: 'Prometheus', alertmanager: 'Alertmanager' } as const;

/** The query parameters fleetdeck adds to Alertmanager's endpoint: shown; any other (it may hold a token) is not. */
const OWN_PARAMS = ['active', 'silenced', 'inhibited'];

/** The gate's URL as printed: no credentials, no query of the user's (`…` in its place), no trailing slash. */
export function shownUrl(url: URL): string {
  const own = [...url.searchParams].filter(([k]) => OWN_PARAMS.includes(k));
  const hidden = [...url.searchParams].length > own.length;
  const query = [...own.map(([k, v]) => `${k}=${v}`), ...(hidden ? ['…'] : [])].join('&');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '') + (query ? `?${query}` : '');
}

/** The URL of the alerts endpoint under the gate's URL (which may have a path prefix and a trailing slash). */
export function alertsEndpoint(gate: Pick<AlertGate, 'url' | 'api' | 'firingOnly'>): URL {
  const u = new URL(gate.url);
  const base = u.pathname.replace(/\/+$/, '');
  if (gate.api === 'prometheus') {
    u.pathname = `${base}/api/v1/alerts`;
    return u;
  }
  u.pathname = `${base}/api/v2/alerts`;
  u.searchParams.set('active', 'true');
  if (gate.firingOnly) {
    u.searchParams.set('silenced', 'false');
    u.searchParams.set('inhibited', 'false');
  }
  return u;
}

/** One line naming what is wrong with the gate, or undefined when it can be used. */
export function validateAlertGate(g: AlertGate): string | undefined {
  let u: URL;
  try {
    u = new URL(g.url);
  } catch {
    return `alerts: url ${JSON.stringify(g.url)} is not a URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `alerts: url must be http or https, not ${u.protocol.replace(/:$/, '')}`;
  if (g.api !== 'prometheus' && g.api !== 'alertmanager')
    return `alerts: api must be prometheus or alertmanager, not ${JSON.stringify(g.api)}`;
  for (const key of ['ignore', 'match'] as const) {
    const source = g[key];
    if (source === undefined) continue;
    try {
      new RegExp(source);
    } catch (err) {
      return `alerts: ${key} ${JSON.stringify(source)} is not a regular expression: ${oneLine(err)}`;
    }
  }
  return undefined;
}

/** Reads the gate's alerts: ok when none blocks; a gate that is wrong or cannot be read holds. Rejects only when the caller's signal aborts. */
export async function checkAlerts(gate: AlertGate, signal?: AbortSignal): Promise<AlertCheck> {
  const invalid = validateAlertGate(gate);
  if (invalid) return { ok: false, blocking: [], text: invalid };
  const endpoint = alertsEndpoint(gate);
  const where = `${API_NAMES[gate.api]} ${shownUrl(new URL(gate.url))}`;
  let alerts: BlockingAlert[];
  try {
    alerts = await readAlerts(gate.api, endpoint, signal);
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    return { ok: false, blocking: [], text: `cannot read alerts from ${shownUrl(endpoint)}: ${scrub(whyFailed(err), endpoint)}` };
  }
  const blocking = alerts.filter(blocks(gate));
  if (blocking.length === 0) return { ok: true, blocking, text: `no firing alert (${where})` };
  return { ok: false, blocking, text: `${heldLine(blocking)} (${where})` };
}

/** Whether an alert holds the rollout under the gate's filters and states. */
function blocks(gate: AlertGate): (a: BlockingAlert) => boolean {
  const ignore = gate.ignore === undefined ? undefined : new RegExp(gate.ignore);
  const match = gate.match === undefined ? undefined : new RegExp(gate.match);
  return (a) => {
    if (ignore?.test(a.name)) return false;
    if (match && !match.test(a.name)) return false;
    if (gate.api === 'prometheus') return a.state === 'firing' || (!gate.firingOnly && a.state === 'pending');
    // Alertmanager holds only alerts that fire (it has no pending ones); suppressed ones are
    // asked away when firingOnly, and left out here too in case the server did not filter.
    return !(gate.firingOnly && a.state === 'suppressed');
  };
}

/** `held by 2 firing alerts: NodeNotReady, TargetDown`: distinct names sorted, repeats counted, at most five. */
function heldLine(blocking: BlockingAlert[]): string {
  const firing = blocking.every((a) => a.state === 'firing' || a.state === 'active');
  const n = blocking.length;
  const head = `held by ${n} ${firing ? 'firing ' : ''}alert${n === 1 ? '' : 's'}`;
  const counts = new Map<string, number>();
  for (const a of blocking) {
    const label = (a.name || '(no alertname)') + (a.state === 'firing' || a.state === 'active' ? '' : ` (${a.state})`);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const names = [...counts.keys()].sort((a, b) => a.localeCompare(b, 'en'));
  const shown = names.slice(0, MAX_NAMES).map((name) => {
    const c = counts.get(name) ?? 1;
    return c > 1 ? `${name} ×${c}` : name;
  });
  const more = names.length > MAX_NAMES ? ` and ${names.length - MAX_NAMES} more` : '';
  return `${head}: ${shown.join(', ')}${more}`;
}

/** GETs the endpoint and parses its alerts; throws a one-line error on any failure. */
async function readAlerts(api: AlertGate['api'], endpoint: URL, signal: AbortSignal | undefined): Promise<BlockingAlert[]> {
  const timeout = AbortSignal.timeout(ALERTS_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const { url, headers } = withoutCredentials(endpoint);
  const res = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: both });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${snippet(errorOf(text) ?? text)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`the answer is not JSON${snippet(text)}`);
  }
  return api === 'prometheus' ? prometheusAlerts(body) : alertmanagerAlerts(body);
}

/** fetch refuses a URL with user:password in it: send them as basic auth instead. */
function withoutCredentials(u: URL): { url: string; headers: Record<string, string> } {
  if (!u.username && !u.password) return { url: u.href, headers: {} };
  const bare = new URL(u.href);
  bare.username = '';
  bare.password = '';
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
  return { url: bare.href, headers: { authorization: `Basic ${basic}` } };
}

/** Prometheus: `{"status":"success","data":{"alerts":[{"labels":{"alertname":…},"state":"firing",…}]}}`. */
function prometheusAlerts(body: unknown): BlockingAlert[] {
  const b = body as { status?: unknown; error?: unknown; data?: { alerts?: unknown } } | null;
  if (b?.status === 'error') throw new Error(`Prometheus answered an error: ${typeof b.error === 'string' ? b.error : 'no reason given'}`);
  const list = b?.data?.alerts;
  if (!Array.isArray(list)) throw new Error('the answer has no data.alerts list (is this the Prometheus API?)');
  return list.map((a: { labels?: unknown; state?: unknown }) => toAlert(a?.labels, a?.state));
}

/** Alertmanager: `[{"labels":{"alertname":…},"status":{"state":"active","silencedBy":[],"inhibitedBy":[]},…}]`. */
function alertmanagerAlerts(body: unknown): BlockingAlert[] {
  if (!Array.isArray(body)) throw new Error('the answer is not a list of alerts (is this the Alertmanager v2 API?)');
  return body.map((a: { labels?: unknown; status?: { state?: unknown } }) => toAlert(a?.labels, a?.status?.state));
}

function toAlert(labels: unknown, state: unknown): BlockingAlert {
  const l: Record<string, string> = {};
  if (labels && typeof labels === 'object') {
    for (const [k, v] of Object.entries(labels)) if (typeof v === 'string') l[k] = v;
  }
  return { name: l.alertname ?? '', state: typeof state === 'string' ? state : 'unknown', labels: l };
}

/** The `error` of a Prometheus error answer, when the body is one. */
function errorOf(text: string): string | undefined {
  try {
    const e = (JSON.parse(text) as { error?: unknown } | null)?.error;
    return typeof e === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}

/** `: <the body's first line, cut>` or nothing. */
function snippet(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (!line) return '';
  return `: ${line.length > 120 ? `${line.slice(0, 119)}…` : line}`;
}

/** Why a read failed, as one line: the network error's cause, a timeout, or the error's message. */
function whyFailed(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer in ${ALERTS_TIMEOUT_MS / 1000} s`;
  const cause = err instanceof Error ? (err.cause as { message?: unknown } | undefined) : undefined;
  if (typeof cause?.message === 'string' && cause.message) return oneLine(cause.message);
  return oneLine(err);
}

function oneLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s*\n\s*/g, ' ').trim() || 'unknown error';
}

/** An error that quotes the URL must not show its credentials. */
function scrub(line: string, u: URL): string {
  return u.username || u.password ? line.replaceAll(u.href, shownUrl(u)) : line;
}

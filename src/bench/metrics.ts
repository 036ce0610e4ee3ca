/**
 * An API server's own request counters (`/metrics`), fetched the way client-node's Health and
 * Watch classes make requests: the KubeConfig applies TLS and credentials to a RequestContext,
 * and fetch uses its headers and dispatcher.
 */
import { createRequire } from 'node:module';
import { HttpMethod, RequestContext, type KubeConfig } from '@kubernetes/client-node';

interface UndiciFetch {
  fetch(
    url: string,
    init: { method: string; headers: Record<string, string>; dispatcher: unknown; signal: AbortSignal },
  ): Promise<{ status: number; text(): Promise<string> }>;
}

/**
 * The undici client-node itself uses: its dispatcher (an undici Agent with the cluster's CA and
 * client certificate) only works with that undici's fetch; Node's global fetch bundles another
 * undici major whose handler API differs.
 */
const undici = createRequire(import.meta.resolve('@kubernetes/client-node'))('undici') as UndiciFetch;

export async function fetchMetrics(kc: KubeConfig, timeoutMs = 10_000): Promise<string> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const url = `${cluster.server.replace(/\/+$/, '')}/metrics`;
  const ctx = new RequestContext(url, HttpMethod.GET);
  await kc.applySecurityAuthentication(ctx);
  const res = await undici.fetch(url, {
    method: 'GET',
    headers: ctx.getHeaders(),
    dispatcher: ctx.getDispatcher(),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET /metrics: HTTP ${res.status}: ${body.slice(0, 200)}`);
  return body;
}

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric in the Prometheus text format. */
export function samples(text: string, metric: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(metric) || (line[metric.length] !== '{' && line[metric.length] !== ' ')) continue;
    const close = line.lastIndexOf('}');
    const labels: Record<string, string> = {};
    if (line[metric.length] === '{') {
      const body = line.slice(metric.length + 1, close);
      for (const m of body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
    }
    const value = Number(
      line
        .slice(close >= 0 ? close + 1 : metric.length)
        .trim()
        .split(/\s+/)[0],
    );
    if (Number.isFinite(value)) out.push({ labels, value });
  }
  return out;
}

/** `apiserver_request_total{verb="LIST"}` by resource (`group/resource`, "core" group shown bare). */
export function listRequestsByResource(text: string): Map<string, number> {
  const by = new Map<string, number>();
  for (const s of samples(text, 'apiserver_request_total')) {
    if (s.labels.verb !== 'LIST') continue;
    const group = s.labels.group ?? '';
    const key = `${group ? `${group}/` : ''}${s.labels.resource ?? '?'}`;
    by.set(key, (by.get(key) ?? 0) + s.value);
  }
  return by;
}

export function sum(m: ReadonlyMap<string, number>): number {
  let t = 0;
  for (const v of m.values()) t += v;
  return t;
}

/** after − before, per key, dropping zeros. */
export function difference(after: ReadonlyMap<string, number>, before: ReadonlyMap<string, number>): Map<string, number> {
  const d = new Map<string, number>();
  for (const [k, v] of after) {
    const x = v - (before.get(k) ?? 0);
    if (x !== 0) d.set(k, x);
  }
  return d;
}

/** Adds b into a (per key). */
export function addInto(a: Map<string, number>, b: ReadonlyMap<string, number>): Map<string, number> {
  for (const [k, v] of b) a.set(k, (a.get(k) ?? 0) + v);
  return a;
}

export function describeCounts(m: ReadonlyMap<string, number>): string {
  const parts = [...m]
    .filter(([, v]) => v !== 0)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : 'none';
}

/**
 * The resource key (as in `listRequestsByResource`) when a request path is a LIST — a
 * collection GET without `watch` — else undefined (single objects, watches, discovery, /metrics).
 */
export function listedResource(method: string, pathAndQuery: string): string | undefined {
  if (method !== 'GET') return undefined;
  const [p = '', query = ''] = pathAndQuery.split('?');
  if (/(^|&)watch=(true|1)(&|$)/.test(query)) return undefined;
  const seg = p.split('/').filter(Boolean);
  let group = '';
  let rest: string[];
  if (seg[0] === 'api' && seg.length >= 2) rest = seg.slice(2);
  else if (seg[0] === 'apis' && seg.length >= 3) {
    group = seg[1]!;
    rest = seg.slice(3);
  } else return undefined;
  if (rest[0] === 'watch') return undefined;
  let resource: string | undefined;
  if (rest.length === 1) resource = rest[0];
  else if (rest[0] === 'namespaces' && rest.length === 3) resource = rest[2];
  if (!resource) return undefined;
  return `${group ? `${group}/` : ''}${resource}`;
}

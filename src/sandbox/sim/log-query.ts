import type { V1ContainerStatus } from '@kubernetes/client-node';
import { type CriEntry, rfc3339Nano } from './container-log.js';

/** What the kubelet's `/containerLogs` endpoint reads from its query (PodLogOptions). */
export interface LogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  /** Only lines written at or after this time (ms since the epoch): sinceSeconds or sinceTime. */
  sinceMs?: number;
  tailLines?: number;
  limitBytes?: number;
}

const bool = (v: string | null) => v === 'true' || v === '1';

function count(q: URLSearchParams, name: string): number | undefined | string {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) return `${name}: invalid value "${v}"`;
  return n;
}

/** The options of a query, or the message of a 400 when one is invalid (as PodLogOptions validation says). */
export function parseLogOptions(q: URLSearchParams, now = Date.now()): LogOptions | string {
  const opts: LogOptions = { follow: bool(q.get('follow')), previous: bool(q.get('previous')), timestamps: bool(q.get('timestamps')) };
  const tail = count(q, 'tailLines');
  const limit = count(q, 'limitBytes');
  const since = count(q, 'sinceSeconds');
  for (const v of [tail, limit, since]) if (typeof v === 'string') return v;
  if (typeof tail === 'number') {
    if (tail < 0) return 'tailLines: Invalid value: must be greater than or equal to 0';
    opts.tailLines = tail;
  }
  if (typeof limit === 'number') {
    if (limit < 1) return 'limitBytes: Invalid value: must be greater than 0';
    opts.limitBytes = limit;
  }
  const sinceTime = q.get('sinceTime');
  if (typeof since === 'number' && sinceTime) return 'at most one of `sinceTime` or `sinceSeconds` may be specified';
  if (typeof since === 'number') {
    if (since < 1) return 'sinceSeconds: Invalid value: must be greater than 0';
    opts.sinceMs = now - since * 1000;
  } else if (sinceTime) {
    const ms = Date.parse(sinceTime);
    if (Number.isNaN(ms)) return `sinceTime: invalid value "${sinceTime}"`;
    opts.sinceMs = ms;
  }
  return opts;
}

/** The lines to send first: the last `tailLines` lines, then those since `sinceMs` (the kubelet's order). */
export function selectEntries(entries: CriEntry[], opts: Pick<LogOptions, 'tailLines' | 'sinceMs'>): CriEntry[] {
  let out = opts.tailLines === undefined ? entries : entries.slice(Math.max(0, entries.length - opts.tailLines));
  if (opts.sinceMs !== undefined) out = out.filter((e) => e.ms >= opts.sinceMs!);
  return out;
}

/** A line as the client gets it: the text, or `<RFC3339Nano> <text>` with timestamps. */
export function formatEntry(e: CriEntry, timestamps: boolean): string {
  return timestamps ? `${rfc3339Nano(e.time)} ${e.text}\n` : `${e.text}\n`;
}

/** Counts bytes sent and cuts the output at limitBytes. */
export class ByteLimit {
  private sent = 0;
  constructor(private readonly limit: number | undefined) {}

  /** The part of `chunk` still within the limit ('' once reached). */
  take(chunk: string): string {
    if (this.limit === undefined) return chunk;
    const left = this.limit - this.sent;
    if (left <= 0) return '';
    const buf = Buffer.from(chunk);
    const part = buf.length <= left ? chunk : buf.subarray(0, left).toString();
    this.sent += Math.min(buf.length, left);
    return part;
  }

  get reached(): boolean {
    return this.limit !== undefined && this.sent >= this.limit;
  }
}

/** Which instance's log to read, or the kubelet's error for it. */
export type Selection = { instance: number } | { code: 400 | 404; message: string };

/**
 * The kubelet's validateContainerLogStatus, with instance numbers: the running instance is
 * `restartCount`, the last terminated one `restartCount - 1`, a terminated container (not
 * restarted) `restartCount`.
 */
export function selectInstance(status: V1ContainerStatus | undefined, pod: string, container: string, previous: boolean): Selection {
  if (!status) return { code: 400, message: `container "${container}" in pod "${pod}" is not available` };
  const n = status.restartCount ?? 0;
  const last = status.lastState?.terminated;
  const { running, terminated, waiting } = status.state ?? {};
  if (previous) {
    if (!last || n === 0) return { code: 400, message: `previous terminated container "${container}" in pod "${pod}" not found` };
    return { instance: n - 1 };
  }
  if (running) return { instance: n };
  if (terminated) return { instance: n };
  if (last && n > 0) return { instance: n - 1 };
  if (waiting) {
    if (waiting.reason === 'ErrImagePull')
      return { code: 400, message: `container "${container}" in pod "${pod}" is waiting to start: image can't be pulled` };
    if (waiting.reason === 'ImagePullBackOff')
      return { code: 400, message: `container "${container}" in pod "${pod}" is waiting to start: trying and failing to pull image` };
    return { code: 400, message: `container "${container}" in pod "${pod}" is waiting to start: ${waiting.reason ?? ''}` };
  }
  return { code: 400, message: `container "${container}" in pod "${pod}" is waiting to start - no logs yet` };
}

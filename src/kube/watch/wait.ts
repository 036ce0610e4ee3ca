import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, makeJsonClient } from '../transport/client.js';
import { ResilientWatch } from './watch.js';

/** What a wait's check says about the objects seen so far. */
export interface WaitVerdict {
  done: boolean;
  /** One line for the progress row, e.g. "1/3 ready (ContainerCreating)". */
  detail: string;
}

export interface WaitOptions<T> {
  kc: KubeConfig;
  /** Collection path, e.g. `/api/v1/namespaces/elotl/pods`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Decides from every object currently in the collection (by name). */
  check: (items: T[]) => WaitVerdict;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Each new detail line while waiting. */
  onProgress?: (detail: string) => void;
  /** Give up (ServerLost) when the API server has not answered for this long (default LOST_AFTER_MS). */
  lostAfterMs?: number;
}

/**
 * How long a wait goes on while the API server does not answer at all (connection refused, timed
 * out, 5xx) before it gives up with ServerLost: the work that waits stops, resumable, instead of
 * waiting out its whole timeout on a server that is gone.
 */
export const LOST_AFTER_MS = 60_000;

/** A wait gave up: the API server did not answer for `lostAfterMs`. */
export class ServerLost extends Error {
  constructor(
    readonly lastError: string,
    readonly lostAfterMs: number,
  ) {
    super(`no answer from the API server for ${Math.round(lostAfterMs / 1000)} s (${lastError})`);
    this.name = 'ServerLost';
  }
}

export class WaitTimeout extends Error {
  constructor(
    readonly detail: string,
    readonly timeoutMs: number,
  ) {
    super(`timed out after ${Math.round(timeoutMs / 1000)} s (${detail})`);
  }
}

/**
 * Waits until `check` is satisfied by the objects of a collection, from a list and a watch
 * (no polling): the answer arrives with the event that makes it true. Resolves with the last
 * detail; rejects with WaitTimeout (with the last detail) or the signal's reason.
 */
export function waitFor<T extends { metadata?: { name?: string; resourceVersion?: string } }>(opts: WaitOptions<T>): Promise<string> {
  const client = makeJsonClient(opts.kc);
  const items = new Map<string, T>();
  const query: Record<string, string> = {};
  if (opts.labelSelector) query.labelSelector = opts.labelSelector;
  if (opts.fieldSelector) query.fieldSelector = opts.fieldSelector;
  let last = 'waiting';
  const lostAfterMs = opts.lostAfterMs ?? LOST_AFTER_MS;
  return new Promise<string>((resolve, reject) => {
    let finished = false;
    /** Since when nothing answered (undefined while the server answers). */
    let failingSince: number | undefined;
    const finish = (err: Error | undefined) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      void watch.stop();
      if (err) reject(err);
      else resolve(last);
    };
    const evaluate = () => {
      const verdict = opts.check([...items.values()]);
      if (verdict.detail !== last) {
        last = verdict.detail;
        opts.onProgress?.(last);
      }
      if (verdict.done) finish(undefined);
    };
    const watch = new ResilientWatch<T>({
      kc: opts.kc,
      path: opts.path,
      queryParams: query,
      list: () => client.get<{ items: T[]; metadata?: { resourceVersion?: string } }>(opts.path, query),
      onList: (list) => {
        failingSince = undefined;
        items.clear();
        for (const o of list) items.set(o.metadata?.name ?? '', o);
        evaluate();
      },
      onEvent: (type, o) => {
        failingSince = undefined;
        if (type === 'DELETED') items.delete(o.metadata?.name ?? '');
        else items.set(o.metadata?.name ?? '', o);
        evaluate();
      },
      onError: (message) => {
        const detail = `${last.split(' (last error')[0]} (last error: ${message})`;
        if (detail !== last) {
          last = detail;
          opts.onProgress?.(last);
        }
        // An answer (403, 404…) is not a lost server.
        if (/^HTTP 4\d\d\b/.test(message)) return;
        failingSince ??= Date.now();
        if (Date.now() - failingSince >= lostAfterMs) finish(new ServerLost(message, lostAfterMs));
      },
      backoff: { initialMs: 500, maxMs: 5_000 },
    });
    const timer = setTimeout(() => finish(new WaitTimeout(last, opts.timeoutMs)), opts.timeoutMs);
    const onAbort = () => finish(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('cancelled'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    watch.start();
  });
}

/** Retries `attempt` until it resolves, every `intervalMs`, for at most `timeoutMs` (for endpoints that cannot be watched, e.g. `/version` of a server coming up). */
export async function retryUntil<T>(
  attempt: () => Promise<T>,
  opts: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal; onError?: (line: string) => void },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      const line = describeError(err);
      opts.onError?.(line);
      if (Date.now() + (opts.intervalMs ?? 1000) > deadline) throw new WaitTimeout(line, opts.timeoutMs);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 1000));
  }
}

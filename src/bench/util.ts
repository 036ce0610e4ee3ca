/** Small helpers the benchmarks share: progress, waiting with a deadline, bounded concurrency, statistics, figure lines. */

const started = performance.now();

/** A progress line on stderr (figures go to stdout). */
export function progress(line: string): void {
  const s = ((performance.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`bench ${s}s  ${line}\n`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value other than undefined/false; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  opts: { timeoutMs: number; intervalMs?: number; onWait?: (elapsedMs: number) => void; signal?: AbortSignal },
): Promise<T> {
  const t0 = performance.now();
  let lastReport = t0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const v = await check();
    if (v !== undefined && v !== false) return v;
    const now = performance.now();
    if (now - t0 > opts.timeoutMs) throw new Error(`timed out after ${Math.round(opts.timeoutMs / 1000)} s waiting for ${what}`);
    if (opts.onWait && now - lastReport >= 10_000) {
      lastReport = now;
      opts.onWait(now - t0);
    }
    await sleep(opts.intervalMs ?? 200);
  }
}

/**
 * Runs `task(i)` for i in [0, count) with at most `concurrency` in flight. Stops at the first
 * error, when `deadline` (epoch ms of performance.now()) passes, or when the signal aborts.
 */
export async function runPool(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
  opts: { deadline: number; what: string; onProgress?: (done: number) => void; signal?: AbortSignal },
): Promise<void> {
  let next = 0;
  let done = 0;
  let failed: unknown;
  let lastReport = performance.now();
  const worker = async () => {
    while (failed === undefined && next < count) {
      if (opts.signal?.aborted) {
        failed = opts.signal.reason;
        return;
      }
      if (performance.now() > opts.deadline) {
        failed = new Error(`${opts.what}: deadline passed after ${done} of ${count}`);
        return;
      }
      const i = next++;
      try {
        await task(i);
      } catch (err) {
        failed ??= err;
        return;
      }
      done++;
      const now = performance.now();
      if (opts.onProgress && now - lastReport >= 5_000) {
        lastReport = now;
        opts.onProgress(done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  if (failed !== undefined) throw failed;
}

/** Median (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0–100). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1]!;
}

/**
 * Fresh processes measured in turn (an odd number): the one whose first frame is the median
 * (its details are printed) and the highest RSS after the first frame among them.
 */
export function medianProcess<T extends { frameMs: number; rssAfterFrame: number }>(runs: readonly T[]): { median: T; highestRss: number } {
  const frame = median(runs.map((x) => x.frameMs));
  return { median: runs.find((x) => x.frameMs === frame)!, highestRss: Math.max(...runs.map((x) => x.rssAfterFrame)) };
}

export const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms` : 'n/a');
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * One figure: what was measured, the number, and the target in brackets with its verdict.
 * `met` undefined means the figure could not be judged (e.g. nothing to measure).
 */
export function figure(what: string, value: string, target: string, met: boolean | undefined): void {
  const verdict = met === undefined ? 'not judged' : met ? 'met' : 'MISSED';
  // process.stdout, not console: a mounted Ink app redirects console output into its frame.
  process.stdout.write(`${what}: ${value} [target ${target}: ${verdict}]\n`);
}

/** A line under a figure (details, causes). */
export function note(line: string): void {
  process.stdout.write(`    ${line}\n`);
}

export function errorLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
}

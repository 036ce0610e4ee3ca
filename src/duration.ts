/**
 * The one formatter of durations (milliseconds to text). Each style is how one kind of place
 * says a duration; every place that shows one calls this, so units and rounding agree:
 *
 * - `elapsed` — how long a step took or has run, a tenth of a second below 10 s: "0.4s", "12s", "2m05s"
 * - `span` — timeouts, intervals, ETAs, ages of a Lease: whole seconds, zero parts left out:
 *   "45s", "3m10s", "15m", "1h05m", "2h"
 * - `clock` — the same with every part kept, for columns that line up: "45s", "3m10s", "15m00s", "1h05m", "2h00m"
 * - `deadline` — a request's deadline, milliseconds below a second: "500ms", "5s", "1m30s", "1m"
 * - `age` — how long ago or how long left, the largest whole unit: "45s", "2m", "3h", "5d"
 * - `kubectl-age` — as `kubectl get csr` ages: a unit until twice the next one: "119s", "5m", "3h", "2d"
 * - `go` — Go's time.Duration, as the kubelet's messages write it: "10s", "1m20s", "5m0s"
 *
 * Negative durations are shown as 0.
 */
export type DurationStyle = 'elapsed' | 'span' | 'clock' | 'deadline' | 'age' | 'kubectl-age' | 'go';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Seconds, minutes and seconds, or hours and minutes; `keepZero` keeps a zero second part. */
function span(s: number, keepZero: boolean): string {
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 || keepZero ? `${m}m${pad2(s % 60)}s` : `${m}m`;
  return m % 60 || keepZero ? `${Math.floor(m / 60)}h${pad2(m % 60)}m` : `${Math.floor(m / 60)}h`;
}

/** The largest whole unit; with `twice`, a unit is kept until the value reaches twice the next one. */
function largest(s: number, twice: boolean): string {
  const k = twice ? 2 : 1;
  if (s < 60 * k) return `${s}s`;
  if (s < 3600 * k) return `${Math.floor(s / 60)}m`;
  if (s < 86_400 * k) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

export function formatDuration(ms: number, style: DurationStyle = 'elapsed'): string {
  const v = Math.max(0, ms);
  switch (style) {
    case 'elapsed': {
      if (v < 10_000) return `${(v / 1000).toFixed(1)}s`;
      const s = Math.round(v / 1000);
      return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${pad2(s % 60)}s`;
    }
    case 'span':
      return span(Math.round(v / 1000), false);
    case 'clock':
      return span(Math.round(v / 1000), true);
    case 'deadline': {
      if (v < 1000) return `${v}ms`;
      const s = Math.round(v / 1000);
      if (s < 60) return `${s}s`;
      return s % 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${Math.floor(s / 60)}m`;
    }
    case 'age':
      return largest(Math.floor(v / 1000), false);
    case 'kubectl-age':
      return largest(Math.floor(v / 1000), true);
    case 'go': {
      const s = Math.round(v / 1000);
      return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
    }
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "15m", "90s", "1h30m", "500ms", "2d"; a bare number is seconds. Undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const v = text.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return undefined;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_MS[p[2]!]!, 0));
}

/**
 * Kubernetes resource quantities ("250m", "1.5", "128Mi", "1G", "2e3") as plain numbers, for
 * the sums a drain's room check makes. Results are rounded up, as the scheduler rounds a
 * request up to the next milli-CPU or byte.
 */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

/** The value of a quantity in its base unit (cores, bytes, count); NaN when it is not one. */
export function parseQuantity(q: string | number | undefined | null): number {
  if (q === undefined || q === null) return NaN;
  if (typeof q === 'number') return q;
  const m = QUANTITY.exec(q.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  if (m[2]) return n * 10 ** Number(m[2].slice(1));
  const suffix = m[3] ?? '';
  return n * (BINARY[suffix] ?? DECIMAL[suffix] ?? NaN);
}

/** CPU in millicores (a missing or invalid quantity counts as 0). */
export function cpuMilli(q: string | number | undefined | null): number {
  const v = parseQuantity(q);
  return Number.isFinite(v) ? Math.ceil(Math.round(v * 1e9) / 1e6) : 0;
}

/** Memory (or any byte quantity) in bytes (a missing or invalid quantity counts as 0). */
export function bytes(q: string | number | undefined | null): number {
  const v = parseQuantity(q);
  return Number.isFinite(v) ? Math.ceil(v) : 0;
}

/** A short human form of millicores: "250m", "3.9 cores". */
export function formatCpu(milli: number): string {
  return milli < 1000 ? `${milli}m` : `${(milli / 1000).toFixed(milli % 1000 === 0 ? 0 : 1)} cores`;
}

/** A short human form of bytes: "512 MiB", "15.5 GiB". */
export function formatBytes(b: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1)} ${units[i]}`;
}

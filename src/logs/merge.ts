/** Lines of several sources in one order: by the runtime's time, each source's own order kept. */

export interface Stamped {
  time: string;
}

/** Milliseconds and the fraction beyond them, so stamps with nanoseconds compare exactly. */
function key(time: string): [number, string] {
  const ms = Date.parse(time);
  const frac = /\.(\d+)/.exec(time)?.[1] ?? '';
  return [Number.isNaN(ms) ? Number.NaN : ms, frac.slice(3).padEnd(6, '0')];
}

function before(a: [number, string], b: [number, string]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/**
 * A k-way merge of per-source lists (each already in its own order). The earliest head goes
 * first; ties go to the earlier source. A line without a stamp keeps the time of the line
 * before it in its source, so it stays with its neighbours.
 */
export function mergeByTime<T extends Stamped>(sources: readonly (readonly T[])[]): T[] {
  const pos = sources.map(() => 0);
  const last: [number, string][] = sources.map(() => [Number.NEGATIVE_INFINITY, '']);
  const out: T[] = [];
  const headKey = (i: number): [number, string] => {
    const k = key(sources[i]![pos[i]!]!.time);
    return Number.isNaN(k[0]) ? last[i]! : k;
  };
  for (;;) {
    let best = -1;
    let bestKey: [number, string] = [0, ''];
    for (let i = 0; i < sources.length; i++) {
      if (pos[i]! >= sources[i]!.length) continue;
      const k = headKey(i);
      if (best < 0 || before(k, bestKey)) {
        best = i;
        bestKey = k;
      }
    }
    if (best < 0) return out;
    last[best] = bestKey;
    out.push(sources[best]![pos[best]!]!);
    pos[best]!++;
  }
}

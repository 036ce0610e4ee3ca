/** Column-width helpers. Widths count code points, which holds for the text fleetdeck shows. */

export function width(s: string): number {
  return [...s].length;
}

/** Cut `s` to at most `max` columns, ending with `ellipsis` when cut. */
export function truncate(s: string, max: number, ellipsis = '…'): string {
  if (max <= 0) return '';
  const chars = [...s];
  if (chars.length <= max) return s;
  const e = [...ellipsis];
  if (e.length >= max) return chars.slice(0, max).join('');
  return chars.slice(0, max - e.length).join('') + ellipsis;
}

/** Cut `s` to at most `max` columns by dropping its middle: "gke_acme…workload-eu". */
export function truncateMiddle(s: string, max: number, ellipsis = '…'): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const room = max - [...ellipsis].length;
  if (room < 2) return truncate(s, max, ellipsis);
  const head = Math.ceil(room / 2);
  return chars.slice(0, head).join('') + ellipsis + chars.slice(chars.length - (room - head)).join('');
}

export function padEnd(s: string, w: number): string {
  const n = width(s);
  return n >= w ? s : s + ' '.repeat(w - n);
}

export function padStart(s: string, w: number): string {
  const n = width(s);
  return n >= w ? s : ' '.repeat(w - n) + s;
}

/** Truncate then pad: exactly `w` columns. */
export function fitCell(s: string, w: number, ellipsis = '…', align: 'left' | 'right' = 'left', cut: 'end' | 'middle' = 'end'): string {
  const t = cut === 'middle' ? truncateMiddle(s, w, ellipsis) : truncate(s, w, ellipsis);
  return align === 'right' ? padStart(t, w) : padEnd(t, w);
}

/** Break text into lines of at most `w` columns, at spaces where possible. */
export function wrap(s: string, w: number): string[] {
  if (w <= 0) return [s];
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (width(rest) > w) {
      if (line) {
        lines.push(line);
        line = '';
      }
      const chars = [...rest];
      lines.push(chars.slice(0, w).join(''));
      rest = chars.slice(w).join('');
    }
    if (!line) line = rest;
    else if (width(line) + 1 + width(rest) <= w) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

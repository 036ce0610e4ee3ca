/**
 * A log line cut to the width when wrap is off: at its end, or, when the search term is past
 * the width, around the term. Widths count code points, as the theme's helpers do.
 */

/** Cut to `w` columns, the last one an ellipsis when cut. */
export function cut(s: string, w: number, ellipsis: string): string {
  const chars = [...s];
  if (chars.length <= w) return s;
  return chars.slice(0, Math.max(0, w - [...ellipsis].length)).join('') + ellipsis;
}

/**
 * Cut to `w` columns so that the first hit of `term` (ignoring case) shows, as `less -S` shifts
 * to a match an operator jumps to. A line whose hit is in sight anyway is cut at its end as
 * always (its start, the pod and the time, stays). Otherwise the line is shifted: an ellipsis
 * for what is left out before, then the text from a third of the width before the hit (what
 * leads to it: a level, a key), then an ellipsis if the line goes on. When the rest of the line
 * fits after the hit, it ends at the line's end, with as much before the hit as the width holds.
 */
export function cutToHit(s: string, w: number, ellipsis: string, term: string): string {
  const chars = [...s];
  const e = [...ellipsis].length;
  const at = term ? s.toLowerCase().indexOf(term.toLowerCase()) : -1;
  if (chars.length <= w || at < 0 || w <= 2 * e + 1) return cut(s, w, ellipsis);
  const start = [...s.slice(0, at)].length;
  const end = start + [...term].length;
  if (end <= w - e) return cut(s, w, ellipsis);
  // Between both ellipses; the hit's start in sight even when it is longer than the room.
  const room = w - 2 * e;
  const from = Math.min(start, Math.max(start - Math.floor(w / 3), end - room, 1));
  // The rest of the line fits after the leading ellipsis: end there, showing more before the hit.
  if (chars.length - from <= w - e) return ellipsis + chars.slice(chars.length - (w - e)).join('');
  return ellipsis + chars.slice(from, from + room).join('') + ellipsis;
}

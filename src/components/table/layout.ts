/** Pure layout for the table: column widths and the visible window of rows. */

export interface ColumnSpec {
  header: string;
  /** Never narrower than this. */
  min: number;
  /** Never wider than this (default: no limit). */
  max?: number;
  /** Columns with a higher value give up width first when the table is too wide. */
  shrink?: number;
}

/**
 * Widths that fit `total` columns: each column as wide as its widest cell (header
 * included, within min/max); if that is too wide, shrink the columns with the
 * highest `shrink` first, down to their `min`. Room left over goes to columns whose
 * `max` cut their content. Returns the widths and the gap used.
 */
export function layoutColumns(
  specs: readonly ColumnSpec[],
  cells: readonly (readonly string[])[],
  total: number,
): { widths: number[]; gap: number } {
  const widest = specs.map((spec, i) => Math.max([...spec.header].length, ...cells.map((row) => [...(row[i] ?? '')].length)));
  const natural = specs.map((spec, i) => Math.max(spec.min, Math.min(spec.max ?? Infinity, widest[i] ?? 0)));
  const sum = (ws: number[], gap: number) => ws.reduce((a, b) => a + b, 0) + gap * Math.max(0, ws.length - 1);
  let gap = 2;
  if (sum(natural, gap) > total) gap = 1;
  let overflow = sum(natural, gap) - total;
  const widths = [...natural];
  const order = specs.map((s, i) => ({ i, shrink: s.shrink ?? 0 })).sort((a, b) => b.shrink - a.shrink || b.i - a.i);
  for (const { i } of order) {
    if (overflow <= 0) break;
    const w = widths[i] ?? 0;
    const give = Math.min(overflow, w - (specs[i]?.min ?? 0));
    if (give > 0) {
      widths[i] = w - give;
      overflow -= give;
    }
  }
  // Room left on a wide terminal: let capped columns show their whole content, left to right.
  let spare = -overflow;
  for (let i = 0; i < widths.length && spare > 0; i++) {
    const grow = Math.min(spare, (widest[i] ?? 0) - (widths[i] ?? 0));
    if (grow > 0) {
      widths[i] = (widths[i] ?? 0) + grow;
      spare -= grow;
    }
  }
  return { widths, gap };
}

/**
 * Which rows to show when they do not all fit in `budget` lines. Rows have
 * heights (a row with a note under it takes two). Keeps the previous first row
 * when the selection is still inside the window, so the view does not jump.
 */
export function scrollWindow(heights: readonly number[], selected: number, budget: number, prevStart = 0): { start: number; end: number } {
  const n = heights.length;
  if (n === 0) return { start: 0, end: 0 };
  const sel = Math.max(0, Math.min(selected, n - 1));
  const h = (i: number) => heights[i] ?? 1;
  const endFrom = (start: number) => {
    let used = 0;
    let end = start;
    while (end < n && used + h(end) <= budget) used += h(end++);
    return Math.max(end, start + 1);
  };
  let start = Math.max(0, Math.min(prevStart, n - 1));
  if (sel < start) start = sel;
  while (sel >= endFrom(start) && start < sel) start++;
  // Use free space at the bottom to show rows above, after the list shrank.
  while (start > 0) {
    let used = 0;
    for (let i = start - 1; i < n; i++) used += h(i);
    if (used > budget) break;
    start--;
  }
  return { start, end: endFrom(start) };
}

/** A column that may be left out when the table is too narrow. */
export interface DroppableSpec extends ColumnSpec {
  /** Left out first when the content does not fit (the highest value goes first); undefined: always shown. */
  drop?: number;
}

/**
 * Which columns to show in `total` columns: all of them when their content fits
 * (one space between), else leave out droppable columns, highest `drop` first,
 * until it fits; when even their minimum widths do not fit, the last ones too.
 * Returns the indices kept, in order.
 */
export function visibleColumns(specs: readonly DroppableSpec[], cells: readonly (readonly string[])[], total: number): number[] {
  const natural = specs.map((spec, i) => {
    const widest = Math.max([...spec.header].length, ...cells.map((row) => [...(row[i] ?? '')].length));
    return Math.max(spec.min, Math.min(spec.max ?? Infinity, widest));
  });
  const kept = specs.map((_, i) => i);
  const need = () => kept.reduce((a, i) => a + (natural[i] ?? 0), 0) + Math.max(0, kept.length - 1);
  const droppable = specs
    .map((s, i) => ({ i, drop: s.drop }))
    .filter((d): d is { i: number; drop: number } => d.drop !== undefined)
    .sort((a, b) => b.drop - a.drop || b.i - a.i);
  for (const { i } of droppable) {
    if (need() <= total) break;
    kept.splice(kept.indexOf(i), 1);
  }
  // Still too wide at their narrowest: the last columns go, so a row never wraps.
  const narrowest = () => kept.reduce((a, i) => a + (specs[i]?.min ?? 0), 0) + Math.max(0, kept.length - 1);
  while (kept.length > 1 && narrowest() > total) kept.pop();
  return kept;
}

/**
 * Cut an already truncated cell into consecutive pieces of the given lengths (in
 * characters), so each piece can have its own color. The last piece takes what
 * is left; pieces past the end are empty.
 */
export function splitCell(text: string, lengths: readonly number[]): string[] {
  const chars = [...text];
  let at = 0;
  return lengths.map((len, i) => {
    const end = i === lengths.length - 1 ? chars.length : Math.min(chars.length, at + len);
    const piece = chars.slice(at, end).join('');
    at = end;
    return piece;
  });
}

/** Which lines of a list show in a given height, and how many are left out on each side. */
export interface FitWindow {
  /** The first line shown. */
  start: number;
  /** One past the last line shown. */
  end: number;
  /** How many lines the list has. */
  total: number;
  /** More lines than fit: one line of the height goes to a marker ("↓ 3 more lines"). */
  overflow: boolean;
}

export interface FitOptions {
  /** Which end stays in sight when the lines do not fit: the first ones (default) or the last. */
  keep?: 'start' | 'end';
  /** Lines scrolled past from the kept end (clamped). */
  offset?: number;
  /** Lines shown at least when they overflow, even if the marker then goes past the height. Default 0. */
  minView?: number;
}

/** How many lines show of `total` in `height`: all of them, or the height less the marker line. */
export function viewSize(total: number, height: number, minView = 0): number {
  return total > height ? Math.max(minView, height - 1) : height;
}

/** The lines of `total` that show in `height` lines, a marker line taking one of them when they overflow. */
export function fitWindow(total: number, height: number, { keep = 'start', offset = 0, minView = 0 }: FitOptions = {}): FitWindow {
  const overflow = total > height;
  if (!overflow) return { start: 0, end: total, total, overflow };
  const view = viewSize(total, height, minView);
  const shift = Math.max(0, Math.min(total - view, offset));
  const start = keep === 'start' ? shift : total - view - shift;
  return { start, end: start + view, total, overflow };
}

/**
 * The smallest terminal the dashboard draws in: every tab, page and overlay lays out at this
 * size with no line wider than the terminal and the frame shorter than it, the tab bar and the
 * key hints in sight. Below it the dashboard says so in one line and keeps each screen's state
 * until the terminal grows again. One column less and the tab bar wraps; one row less and the
 * install wizard's progress, a rollout's progress and the storage estimate lose their key lines.
 */
export const MIN_SIZE = { columns: 60, rows: 15 } as const;

/** True when the terminal is smaller than MIN_SIZE either way. */
export function tooSmall(columns: number, rows: number): boolean {
  return columns < MIN_SIZE.columns || rows < MIN_SIZE.rows;
}

import { CursorLines } from './cursor-lines.js';
import type { DetailLine } from './detail-lines.js';

export interface ScrollPageProps {
  lines: readonly DetailLine[];
  /** The first line shown (useDetailScroll, moved by the view's keys). */
  offset: number;
  height: number;
  width: number;
}

/** Lines that scroll when taller than `height`, with "lines 3–19 of 40" under them then. */
export function ScrollPage({ lines, offset, height, width }: ScrollPageProps) {
  return <CursorLines lines={lines} row={undefined} offset={offset} height={height} width={width} keys="j/k scroll" />;
}

import { viewSize } from '../../components/fit/index.js';
import { CursorLines } from './cursor-lines.js';
import type { DetailLine } from './detail-lines.js';
import { useDetailScroll } from './use-detail-scroll.js';

export interface ScrollPageProps {
  lines: readonly DetailLine[];
  height: number;
  width: number;
  /** j/k and the page keys scroll it. */
  isActive: boolean;
}

/** Lines that scroll when taller than `height`, with "lines 3–19 of 40" under them then. */
export function ScrollPage({ lines, height, width, isActive }: ScrollPageProps) {
  const offset = useDetailScroll(lines.length, viewSize(lines.length, height, 1), isActive);
  return <CursorLines lines={lines} row={undefined} offset={offset} height={height} width={width} keys="j/k scroll" />;
}

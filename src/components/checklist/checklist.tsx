import type { CheckItem, ChecklistLine } from '../../checklist/checklist.js';
import { FitLines, type FitWindow } from '../fit/index.js';
import { ChecklistRow } from './checklist-row.js';
import { type ChecklistFold, foldedLines } from './fold.js';

/** What a checklist left out to fit its height. */
export interface HiddenLines {
  /** Lines left out. */
  lines: number;
  /** Items among them (hints and continuation lines not counted). */
  items: number;
}

export interface ChecklistProps {
  items: readonly CheckItem[];
  /** Columns available; lines are truncated, never wrapped. Default 80. */
  width?: number;
  /** Lines available, the "more" line included; default: every line shows. */
  height?: number;
  /** How finished rows give way (see ChecklistFold); default: they do not. */
  fold?: ChecklistFold;
  /** Which end stays in sight when it is still too tall: the first lines (default) or the last (running steps). */
  keep?: 'start' | 'end';
  /** Lines scrolled past from the kept end. */
  offset?: number;
  /** Extra indentation, in levels of two columns. */
  depth?: number;
  /** The dim line in place of what is left out; default "↓ n more lines" (or "↑ n more lines above"). */
  more?: (hidden: HiddenLines) => string | undefined;
}

const plural = (n: number) => `${n} more line${n === 1 ? '' : 's'}`;

function defaultMore(keep: 'start' | 'end') {
  return ({ lines }: HiddenLines) => (keep === 'end' ? `↑ ${plural(lines)} above` : `↓ ${plural(lines)}`);
}

function hidden(lines: readonly ChecklistLine[], window: FitWindow): HiddenLines {
  const left = [...lines.slice(0, window.start), ...lines.slice(window.end)];
  return { lines: left.length, items: left.filter((l) => l.kind === 'item').length };
}

/**
 * The list every screen is made of: one line per item (symbol, label, detail),
 * the hint on the line below, children indented; within `height` lines, finished rows
 * fold as asked and the rest scrolls, a dim line saying what was left out.
 */
export function Checklist({
  items,
  width = 80,
  height,
  fold,
  keep = 'start',
  offset = 0,
  depth = 0,
  more = defaultMore(keep),
}: ChecklistProps) {
  const lines = foldedLines(items, fold, height);
  return (
    <FitLines
      lines={lines}
      height={height ?? lines.length}
      keep={keep}
      offset={offset}
      keyOf={(line) => `${line.item.id}:${line.kind}:${line.depth}`}
      render={(line) => <ChecklistRow line={depth ? { ...line, depth: line.depth + depth } : line} width={width} />}
      marker={(window) => more(hidden(lines, window))}
    />
  );
}

/**
 * Which rows of the log fit the window: the lines held, merged, cut (around a search hit past
 * the width) or wrapped to the width, from a bottom line (the newest while following, else the
 * line the operator scrolled to) up.
 * Pure, so the view and its tests share it.
 */
import { width as textWidth } from '../../components/theme/index.js';
import { formatLine, type LogLine, type LogSource } from '../../store/logs.js';
import { cutToHit } from './cut-line.js';

/** One row on screen: its text, and where the search term is in it. */
export interface LogRow {
  /** The line's `seq`. */
  seq: number;
  text: string;
  /** Column ranges of the search term, [start, end). */
  hits: [number, number][];
}

// Escape sequences (colours, cursor moves) and other control characters would break the frame.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
const ESCAPES = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|[@-Z\\-_])/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what is removed
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** A log line as the terminal can show it: no escape sequences, tabs as spaces. */
export function cleanText(s: string): string {
  return s.replace(ESCAPES, '').replace(CONTROLS, '').replace(/\t/g, '    ');
}

/** Cut into pieces of at most `w` columns (characters, not words: a log keeps its spacing). */
export function hardWrap(s: string, w: number): string[] {
  if (w <= 0 || textWidth(s) <= w) return [s];
  const out: string[] = [];
  let line = '';
  let used = 0;
  for (const ch of s) {
    const cw = textWidth(ch);
    if (used + cw > w) {
      out.push(line);
      line = '';
      used = 0;
    }
    line += ch;
    used += cw;
  }
  if (line || out.length === 0) out.push(line);
  return out;
}

function hitsOf(text: string, term: string): [number, number][] {
  if (!term) return [];
  const lower = text.toLowerCase();
  const t = term.toLowerCase();
  const out: [number, number][] = [];
  for (let at = lower.indexOf(t); at >= 0; at = lower.indexOf(t, at + t.length)) out.push([at, at + t.length]);
  return out;
}

/** Index of the last line whose seq ≤ `seq` (−1 when none). */
export function indexAtOrBefore(lines: readonly LogLine[], seq: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]!.seq <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface WindowOptions {
  width: number;
  height: number;
  wrap: boolean;
  timestamps: boolean;
  search: string;
  /** The bottom line's seq; undefined: the newest (following). */
  anchor?: number;
  ellipsis: string;
}

/** The rows that fill the window, top to bottom, ending at the anchor's line. */
export function logWindow(lines: readonly LogLine[], sources: readonly LogSource[], o: WindowOptions): LogRow[] {
  if (lines.length === 0 || o.height <= 0) return [];
  let bottom = o.anchor === undefined ? lines.length - 1 : indexAtOrBefore(lines, o.anchor);
  if (bottom < 0) bottom = Math.min(lines.length - 1, o.height - 1);
  const rows: LogRow[] = [];
  for (let i = bottom; i >= 0 && rows.length < o.height; i--) {
    const l = lines[i]!;
    const text = cleanText(formatLine(sources, l, o.timestamps));
    // Wrap off: cut at the width, or around the search term when it is past the width (cut-line.ts).
    const pieces = o.wrap ? hardWrap(text, o.width) : [cutToHit(text, o.width, o.ellipsis, o.search)];
    for (let p = pieces.length - 1; p >= 0 && rows.length < o.height; p--) {
      rows.push({ seq: l.seq, text: pieces[p]!, hits: hitsOf(pieces[p]!, o.search) });
    }
  }
  return rows.reverse();
}

import type { KeyHint } from '../key-hints/index.js';
import { width as textWidth } from '../theme/index.js';

export interface HelpSection {
  title: string;
  keys: readonly KeyHint[];
}

/** Columns between two groups side by side, and around them in the box (border and padding). */
export const GROUP_GAP = 3;
const BOX_COLUMNS = 4;
/** Lines of the box besides the keys: border, "Keys", gap, group titles, gap, footer, border. */
const BOX_LINES = 7;

/** The width of a group's key column: its widest key and two spaces. */
export function keyColumn(section: HelpSection, text: (s: string) => string): number {
  return Math.max(...section.keys.map((k) => textWidth(text(k.key))), 1) + 2;
}

/** Whether the framed box of groups side by side fits in `width` × `height`. */
export function boxFits(sections: readonly HelpSection[], width: number, height: number, text: (s: string) => string): boolean {
  const groups = sections.map((s) =>
    Math.max(textWidth(text(s.title)), keyColumn(s, text) + Math.max(...s.keys.map((k) => textWidth(text(k.label))), 0)),
  );
  const columns = groups.reduce((a, b) => a + b, 0) + GROUP_GAP * Math.max(0, sections.length - 1) + BOX_COLUMNS;
  const lines = BOX_LINES + Math.max(0, ...sections.map((s) => s.keys.length));
  return columns <= width && lines <= height;
}

/** A line of the compact help: a group's title, or some of its keys side by side. */
export type CompactLine = { kind: 'title'; text: string } | { kind: 'keys'; keys: KeyHint[] };

/**
 * The help for a small terminal: each group's title, then its keys packed on as few lines of
 * `width` columns as they fit ("j k move · g G first / last · enter context details").
 */
export function compactLines(
  sections: readonly HelpSection[],
  width: number,
  text: (s: string) => string,
  separator: string,
): CompactLine[] {
  const lines: CompactLine[] = [];
  for (const section of sections) {
    lines.push({ kind: 'title', text: section.title });
    let line: KeyHint[] = [];
    let used = 0;
    for (const k of section.keys) {
      const w = textWidth(text(`${k.key} ${k.label}`));
      const extra = line.length ? separator.length + w : w;
      if (line.length && used + extra > width) {
        lines.push({ kind: 'keys', keys: line });
        line = [];
        used = 0;
      }
      used += line.length ? separator.length + w : w;
      line.push(k);
    }
    if (line.length) lines.push({ kind: 'keys', keys: line });
  }
  return lines;
}

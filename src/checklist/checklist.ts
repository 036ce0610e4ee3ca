/**
 * The one model every screen shares: a list of things that are pending, running,
 * fine, warning or failed, each with an optional detail and a hint for what to do.
 * Plain data, so workflows and reporters produce it without React.
 */
import { formatDuration } from '../duration.js';

export type CheckState = 'pending' | 'running' | 'ok' | 'warn' | 'fail' | 'info';

export interface CheckItem {
  id: string;
  label: string;
  state: CheckState;
  /** The value found, e.g. "Running" or "3/4". */
  detail?: string;
  /** Printed as a `* ` bullet in text even without a detail (as the Nova status command does). */
  bullet?: boolean;
  /** What to do next; shown on its own line under the item. */
  hint?: string;
  /** The check could not be made (a list forbidden): `state` says how it shows; `status` does not exit 0. */
  unknown?: boolean;
  /** How long the step took, or has been running (install steps, rollout nodes). */
  elapsedMs?: number;
  children?: CheckItem[];
}

export interface SymbolOptions {
  /** Use ASCII only, for terminals without Unicode. */
  ascii: boolean;
}

const UNICODE: Record<CheckState, string> = {
  pending: '·',
  running: '…',
  ok: '√',
  warn: '‼',
  fail: '✗',
  info: '•',
};

const ASCII: Record<CheckState, string> = {
  pending: '[  ]',
  running: '[..]',
  ok: '[ok]',
  warn: '[!!]',
  fail: '[xx]',
  info: '[--]',
};

/** The symbol for a state; every symbol of one set has the same width. */
export function checkSymbol(state: CheckState, opts: SymbolOptions): string {
  return (opts.ascii ? ASCII : UNICODE)[state];
}

const ASCII_REPLACEMENTS: Record<string, string> = {
  '…': '...',
  '·': '.',
  '•': '*',
  '—': '-',
  '–': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '→': '->',
  '←': '<-',
  '↑': '^',
  '↓': 'v',
  '×': 'x',
  '√': 'v',
  '✓': 'v',
  '✗': 'x',
  '‼': '!!',
};

/** Make any text printable on an ASCII-only terminal. */
export function toAscii(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 128) out += ch;
    else out += ASCII_REPLACEMENTS[ch] ?? '?';
  }
  return out;
}

/** One printed line of a checklist, in display order. */
export interface ChecklistLine {
  kind: 'item' | 'hint';
  item: CheckItem;
  depth: number;
}

/** Flatten a tree of items into the lines it prints: each item, then its hint, then its children. */
export function checklistLines(items: readonly CheckItem[], depth = 0): ChecklistLine[] {
  const lines: ChecklistLine[] = [];
  for (const item of items) {
    lines.push({ kind: 'item', item, depth });
    if (item.hint) lines.push({ kind: 'hint', item, depth });
    if (item.children?.length) lines.push(...checklistLines(item.children, depth + 1));
  }
  return lines;
}

/**
 * Plain text in the wording operators know from the Nova status command:
 *
 * ```
 * * API Server status... Running √
 * 0 workload clusters connected ‼
 *   please connect at least one Cluster, otherwise ...
 * ```
 *
 * An item with a detail reads "* label... detail"; an item without one is a
 * statement and has no bullet unless it asks for one (`bullet`). The state symbol ends the line (none for info).
 * Hints follow on the next line, two spaces deeper; children are indented two
 * spaces per level.
 */
export function formatChecklist(items: readonly CheckItem[], opts: SymbolOptions = { ascii: false }): string {
  const text = checklistLines(items)
    .map((line) => {
      const indent = '  '.repeat(line.depth);
      const { item } = line;
      if (line.kind === 'hint') return `${indent}  ${item.hint ?? ''}`;
      const body = item.detail !== undefined ? `* ${item.label}... ${item.detail}` : item.bullet ? `* ${item.label}` : item.label;
      const symbol = item.state === 'info' ? '' : ` ${checkSymbol(item.state, opts)}`;
      const elapsed = item.elapsedMs !== undefined ? ` (${formatDuration(item.elapsedMs)})` : '';
      return `${indent}${body}${elapsed}${symbol}`;
    })
    .join('\n');
  return opts.ascii ? toAscii(text) : text;
}

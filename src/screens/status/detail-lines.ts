import { checklistLines, toAscii, type ChecklistLine } from '../../checklist/checklist.js';
import { clock, contextChecks } from '../../store/selectors.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { ContextState } from '../../store/types.js';
import { truncate, width as textWidth, wrap } from '../../components/theme/index.js';

export interface Field {
  label: string;
  value: string;
  tone?: 'warn' | 'fail';
}

/** One line of the context detail view; the view only scrolls through them. */
export type DetailLine =
  | { kind: 'fields'; fields: Field[] }
  | { kind: 'error'; text: string; first: boolean }
  | { kind: 'heading'; text: string }
  | { kind: 'blank' }
  | { kind: 'check'; line: ChecklistLine }
  /** The rest of a long check detail, under where it started. */
  | { kind: 'more'; text: string; indent: number }
  /** Text already laid out (a row of a plain table). */
  | { kind: 'text'; text: string; bold?: boolean; id?: string };

/** Labels are padded to this width ("Last success  "). */
export const FIELD_LABEL_WIDTH = 14;

/** Lines a long value may take before it is cut. */
const MAX_WRAPPED = 4;

export interface DetailOptions {
  /** ASCII symbols are four columns wide, Unicode ones one. */
  ascii: boolean;
  /** What the context is in the fleet, e.g. "hosting, namespace elotl". */
  role?: string | undefined;
  /** The fleet, which tells the control plane's own context (no nodes there is fine). */
  fleet?: FleetConfig | undefined;
}

/** Lines a hint may take: it often holds the command to run, worth reading whole. */
const MAX_HINT_WRAPPED = 6;

/** Wrap to at most `max` lines, the last one cut. */
function wrapLines(text: string, room: number, opts: DetailOptions, max = MAX_WRAPPED): string[] {
  const chunks = wrap(text, room);
  if (chunks.length <= max) return chunks;
  const kept = chunks.slice(0, max);
  kept[max - 1] = truncate(chunks.slice(max - 1).join(' '), room, opts.ascii ? '~' : '…');
  return kept;
}

/** Two fields side by side when both fit in half the width, else one per line. */
function pair(a: Field, b: Field, width: number): DetailLine[] {
  const half = Math.floor((width - 2) / 2) - FIELD_LABEL_WIDTH;
  if (textWidth(a.value) <= half && textWidth(b.value) <= half) return [{ kind: 'fields', fields: [a, b] }];
  return [
    { kind: 'fields', fields: [a] },
    { kind: 'fields', fields: [b] },
  ];
}

/** A check line, plus continuation lines when its detail is too long for one. */
export function checkLines(line: ChecklistLine, width: number, opts: DetailOptions): DetailLine[] {
  const { item } = line;
  const text = (s: string) => (opts.ascii ? toAscii(s) : s);
  if (line.kind === 'hint' && item.hint !== undefined) {
    // Under the arrow: "  ↳ hint", continued under its first word.
    const indent = line.depth * 2 + (opts.ascii ? 4 : 1) + 1 + (opts.ascii ? 3 : 2);
    const room = width - indent;
    const hint = text(item.hint);
    if (textWidth(hint) <= room || room < 20) return [{ kind: 'check', line }];
    const [first = '', ...rest] = wrapLines(hint, room, opts, MAX_HINT_WRAPPED);
    return [
      { kind: 'check', line: { ...line, item: { ...item, hint: first } } },
      ...rest.map((t) => ({ kind: 'more' as const, text: t, indent })),
    ];
  }
  if (line.kind !== 'item' || item.detail === undefined) return [{ kind: 'check', line }];
  const detail = text(item.detail);
  const indent = line.depth * 2 + (opts.ascii ? 4 : 1) + 1 + textWidth(text(item.label)) + 2;
  const room = width - indent;
  if (textWidth(detail) <= room || room < 20) return [{ kind: 'check', line }];
  const [first = '', ...rest] = wrapLines(detail, room, opts);
  return [
    { kind: 'check', line: { ...line, item: { ...item, detail: first } } },
    ...rest.map((text) => ({ kind: 'more' as const, text, indent })),
  ];
}

/** The Info section of one context (its name and reachability are on the title line above), as lines that fit `width` columns. */
export function detailLines(ctx: ContextState, width: number, opts: DetailOptions = { ascii: false }): DetailLine[] {
  const lines: DetailLine[] = [];
  lines.push({ kind: 'fields', fields: [{ label: 'Server', value: ctx.server }] });
  if (opts.role) lines.push({ kind: 'fields', fields: [{ label: 'Fleet role', value: opts.role }] });
  lines.push(...pair({ label: 'Cluster', value: ctx.cluster }, { label: 'User', value: ctx.user }, width));
  const eviction = ctx.evictionVersion ?? 'unknown';
  lines.push(
    ...pair(
      { label: 'Version', value: ctx.version ?? 'unknown' },
      {
        label: 'Eviction API',
        value: eviction === 'none' ? 'none (drain cannot evict)' : eviction,
        ...(eviction === 'none' ? { tone: 'warn' as const } : {}),
      },
      width,
    ),
  );
  lines.push(
    ...pair(
      { label: 'Last success', value: ctx.lastSuccessAt !== undefined ? clock(ctx.lastSuccessAt) : 'never' },
      { label: 'Namespace', value: ctx.namespace ?? 'default' },
      width,
    ),
  );
  if (ctx.lastError) {
    const error = opts.ascii ? toAscii(ctx.lastError) : ctx.lastError;
    const errorLines = wrapLines(error, Math.max(20, width - FIELD_LABEL_WIDTH), opts);
    lines.push(...errorLines.map((text, i): DetailLine => ({ kind: 'error', text, first: i === 0 })));
  }
  lines.push({ kind: 'blank' });
  lines.push({ kind: 'heading', text: 'Checks' });
  for (const line of checklistLines(contextChecks(ctx, opts.fleet))) lines.push(...checkLines(line, width, opts));
  return lines;
}

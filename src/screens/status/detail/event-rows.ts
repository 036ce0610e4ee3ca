import type { Column, TableFooter } from '../../../components/table/index.js';
import type { WarningEvent } from '../../../kube/events/events.js';
import type { Pane } from './row-pane.js';
import { ago } from '../../../report/relative-time.js';

/** How many warnings the section lists. */
export const EVENTS_SHOWN = 20;

/**
 * One row per reason and object, newest first, at most EVENTS_SHOWN: the newest
 * occurrence's message and time, the counts added up.
 */
export function recentWarnings(warnings: readonly WarningEvent[]): WarningEvent[] {
  const byKey = new Map<string, WarningEvent>();
  for (const w of warnings) {
    const key = `${w.reason}\u0000${w.object}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, w);
    else {
      const newer = w.lastSeen > seen.lastSeen ? w : seen;
      byKey.set(key, { ...newer, count: seen.count + w.count });
    }
  }
  return [...byKey.values()].sort((a, b) => b.lastSeen - a.lastSeen).slice(0, EVENTS_SHOWN);
}

export const eventKey = (e: WarningEvent) => `${e.reason}/${e.object}`;

/** What the / filter looks through. */
export function eventText(e: WarningEvent): string {
  return `${e.reason} ${e.object} ${e.message}`;
}

/**
 * LAST SEEN, REASON, OBJECT, COUNT, MESSAGE, as kubectl prints events. MESSAGE
 * gives way first (Enter shows it whole), then OBJECT, cut at the end: its kind,
 * namespace and the start of its name tell more than a generated suffix.
 */
export function eventColumns(now: number): Column<WarningEvent>[] {
  return [
    { key: 'seen', header: 'LAST SEEN', min: 9, align: 'right', value: (e) => ago(e.lastSeen, now) },
    { key: 'reason', header: 'REASON', min: 8, max: 20, shrink: 2, value: (e) => e.reason, color: () => 'warn' },
    { key: 'object', header: 'OBJECT', min: 22, max: 48, shrink: 3, value: (e) => e.object },
    { key: 'count', header: 'COUNT', min: 5, align: 'right', value: (e) => String(e.count) },
    { key: 'message', header: 'MESSAGE', min: 18, shrink: 4, value: (e) => e.message.replace(/\s+/g, ' ') },
  ];
}

export function eventsFooter(listed: number, matched: number, filter: string, view: TableFooter): string {
  const head = filter.trim()
    ? `${matched} of ${listed} warnings match`
    : `${listed} recent warning${listed === 1 ? '' : 's'}, newest first`;
  return view.overflow ? `${head} · rows ${view.start + 1}–${view.end}` : head;
}

export function eventPane(e: WarningEvent, now: number): Pane {
  return {
    title: `${e.reason} on ${e.object}`,
    facts: `${e.count} time${e.count === 1 ? '' : 's'}, last ${ago(e.lastSeen, now)} ago${e.namespace ? ` · namespace ${e.namespace}` : ''}`,
    paragraphs: [e.message],
  };
}

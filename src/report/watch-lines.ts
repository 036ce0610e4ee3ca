import { checklistLines, formatChecklist, type CheckItem } from '../checklist/checklist.js';

export interface ChangedLine {
  key: string;
  item: CheckItem;
  /** The item as `formatChecklist` prints it (first line, no hint). */
  text: string;
}

/** Latency and clock times change on every probe; they alone are not a change worth a line. */
function stable(text: string): string {
  return text.replace(/\b\d+ ms\b/g, '').replace(/\b\d\d:\d\d:\d\d\b/g, '');
}

/**
 * Remembers the last checklist and tells which items changed since: the core of
 * `status --watch`, which prints one line per change instead of redrawing a screen.
 */
export class ChecklistDiff {
  private previous = new Map<string, string>();

  /** Items that are new or changed (by state, label, detail or hint) since the last call. */
  next(items: readonly CheckItem[], ascii: boolean): ChangedLine[] {
    const current = new Map<string, string>();
    const changed: ChangedLine[] = [];
    const seen = new Map<string, number>();
    for (const line of checklistLines(items)) {
      if (line.kind !== 'item') continue;
      const base = `${line.depth}/${line.item.id}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      const key = n ? `${base}#${n}` : base;
      const text = formatChecklist([{ ...line.item, children: undefined, hint: undefined }], { ascii });
      const fingerprint = stable(`${text}\n${line.item.hint ?? ''}`);
      current.set(key, fingerprint);
      if (this.previous.get(key) !== fingerprint) changed.push({ key, item: line.item, text });
    }
    this.previous = current;
    return changed;
  }
}

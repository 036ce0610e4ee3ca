/** The log view's `s`: the lines held, written to a new file (never over one). */
import { open } from 'node:fs/promises';
import path from 'node:path';
import { formatLine, mergedLines, type LogsSlice } from '../store/logs.js';

/** `<pod>-<container>-<time>.log`, the time as ISO 8601 without colons (file-name safe). */
export function logFileBase(slice: LogsSlice, now: Date): string | undefined {
  const first = slice.sources[0];
  if (!first) return undefined;
  return `${first.pod}-${first.container || 'log'}-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Writes the slice's lines (every source, in arrival order, with their times; the pod first
 * when there are several) to `dir`; a name taken gets `-1`, `-2`, … Resolves with the line the
 * view shows.
 */
export async function saveLog(slice: LogsSlice, dir: string, now: Date): Promise<{ text: string; kind: 'ok' | 'fail' }> {
  const base = logFileBase(slice, now);
  if (!base) return { text: 'nothing to save yet', kind: 'fail' };
  const lines = mergedLines(slice.sources);
  const body = lines.map((l) => `${formatLine(slice.sources, l, true)}\n`).join('');
  for (let n = 0; n < 100; n++) {
    const file = path.join(dir, `${base}${n ? `-${n}` : ''}.log`);
    try {
      const fh = await open(file, 'wx');
      try {
        await fh.writeFile(body);
      } finally {
        await fh.close();
      }
      return { text: `saved ${lines.length} lines to ${file}`, kind: 'ok' };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      return { text: `cannot save: ${err instanceof Error ? err.message : String(err)}`, kind: 'fail' };
    }
  }
  return { text: `cannot save: ${base}.log and 99 more names exist`, kind: 'fail' };
}

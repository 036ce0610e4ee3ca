import type { CheckItem } from '../../checklist/checklist.js';
import { ChecklistDiff } from '../../report/watch-lines.js';
import { clock } from '../../store/selectors.js';

export const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** The rows without the elapsed time of running ones (it changes by itself). */
function still(items: CheckItem[]): CheckItem[] {
  return items.map((i) => {
    const { elapsedMs, ...rest } = i;
    const out: CheckItem = i.state === 'running' ? rest : { ...rest, ...(elapsedMs !== undefined ? { elapsedMs } : {}) };
    if (i.children) out.children = still(i.children);
    return out;
  });
}

/** Prints each row when its state or detail changes (elapsed time alone is not a change). */
export function lineReporter(ascii: boolean): (items: CheckItem[]) => void {
  const diff = new ChecklistDiff();
  return (items) => {
    for (const line of diff.next(still(items), ascii)) {
      if (line.item.state === 'pending') continue;
      write(`${clock(Date.now())} ${line.text}`);
      if (line.item.hint && line.item.state !== 'ok') write(`         ${line.item.hint}`);
    }
  };
}

import { checklistLines, type CheckItem, type ChecklistLine } from '../../checklist/checklist.js';

/**
 * How finished rows give way when a checklist is too tall:
 * - `children`: a finished (√) row hides its children, keeping those that need attention
 *   (warn, fail, running); always, as steps finish (install steps, rollout nodes);
 * - `passed`: only when the list does not fit, the passed top-level rows (√ and •) become one
 *   line, "12 other checks passed", so the failures and warnings with their hints stay in sight.
 */
export type ChecklistFold = 'children' | 'passed';

const needsAttention = (i: CheckItem) => i.state === 'warn' || i.state === 'fail' || i.state === 'running';
const passed = (i: CheckItem) => i.state === 'ok' || i.state === 'info';

/** A finished row's children are folded away unless one of them needs attention. */
export function foldChildren(items: readonly CheckItem[]): CheckItem[] {
  return items.map((i) => {
    if (!i.children?.length) return i;
    const children = i.state === 'ok' ? i.children.filter(needsAttention) : i.children;
    return { ...i, children: foldChildren(children) };
  });
}

/** The rows that need attention, then one line for the passed ones (their labels as its detail). */
export function foldPassed(items: readonly CheckItem[]): CheckItem[] {
  const ok = items.filter(passed);
  if (ok.length === 0) return [...items];
  const summary: CheckItem = {
    id: 'passed',
    label: `${ok.length} other check${ok.length === 1 ? '' : 's'} passed`,
    state: 'ok',
    detail: ok.map((p) => p.label).join(', '),
  };
  return [...items.filter((i) => !passed(i)), summary];
}

/** The lines a checklist prints in `height` lines (undefined: no limit) after folding as asked. */
export function foldedLines(items: readonly CheckItem[], fold: ChecklistFold | undefined, height: number | undefined): ChecklistLine[] {
  if (fold === 'children') return checklistLines(foldChildren(items));
  const lines = checklistLines(items);
  if (fold !== 'passed' || height === undefined || lines.length <= height) return lines;
  return checklistLines(foldPassed(items));
}

import type { CheckItem, CheckState } from '../../../checklist/checklist.js';
import type { FleetConfig } from '../../../kube/fleet/fleet.js';

export interface FleetSummary {
  /** The worst state found: fail, warn, running (still checking), ok; info when there is nothing to check. */
  state: CheckState;
  /** "2 failed · 1 warning", "healthy (14 checks)", "checking… (5 of 12 done)". */
  text: string;
}

function walk(items: readonly CheckItem[], visit: (item: CheckItem) => void): void {
  for (const item of items) {
    visit(item);
    if (item.children) walk(item.children, visit);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line for the whole checklist, counting every item at any depth (info items are not checks). */
export function fleetSummary(items: readonly CheckItem[]): FleetSummary {
  const counts: Record<CheckState, number> = { pending: 0, running: 0, ok: 0, warn: 0, fail: 0, info: 0 };
  walk(items, (item) => counts[item.state]++);
  const checking = counts.pending + counts.running;
  const total = counts.ok + counts.warn + counts.fail + checking;
  if (total === 0) return { state: 'info', text: 'no checks yet' };
  if (counts.fail > 0 || counts.warn > 0) {
    const parts = [];
    if (counts.fail > 0) parts.push(`${counts.fail} failed`);
    if (counts.warn > 0) parts.push(plural(counts.warn, 'warning'));
    if (checking > 0) parts.push(`${checking} checking`);
    return { state: counts.fail > 0 ? 'fail' : 'warn', text: parts.join(' · ') };
  }
  if (checking > 0) return { state: 'running', text: `checking… (${counts.ok} of ${total} done)` };
  return { state: 'ok', text: `healthy (${plural(total, 'check')})` };
}

/** "Fleet elotl on kind-cp" ("Fleet staging: elotl on kind-staging"): its name, the namespace of the control plane and the context that hosts it. */
export function fleetTitle(fleet: FleetConfig): string {
  return `Fleet ${fleet.name ? `${fleet.name}: ` : ''}${fleet.namespace} on ${fleet.hostingContext}`;
}

/** Every failed or warning item, at any depth, without its children: what needs doing, hints included. */
export function fleetProblems(items: readonly CheckItem[]): CheckItem[] {
  const out: CheckItem[] = [];
  walk(items, (item) => {
    if (item.state === 'fail' || item.state === 'warn') {
      const { children: _children, ...flat } = item;
      out.push(flat);
    }
  });
  return out;
}

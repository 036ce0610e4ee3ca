/**
 * The plan page of the new-rollout wizard as checklist items: the resolved nodes in the order
 * they are replaced, each with its dry run (how its pods would go), then the room check and
 * the plan's warnings. Pure.
 */
import type { NodeDryRun } from '../../rollout/drain/dry-run.js';
import type { DrainAction, PodClassification } from '../../rollout/drain/filters.js';
import type { Plan } from '../../rollout/plan.js';
import type { RolloutDryRun } from '../../rollout/runner/dry-run.js';
import type { CheckItem } from '../../checklist/checklist.js';
import type { PlanVerdict } from '../../store/rollout-wizard.js';

const COUNTED: { action: DrainAction; text: string }[] = [
  { action: 'evict', text: 'evict' },
  { action: 'delete', text: 'finished' },
  { action: 'ignored-daemonset', text: 'DaemonSet' },
  { action: 'skipped-mirror', text: 'mirror' },
  { action: 'needs-force', text: 'need --force' },
  { action: 'needs-delete-emptydir-data', text: 'need --delete-emptydir-data' },
  { action: 'blocked-pdb', text: 'PDB-blocked now' },
];

/** "7 pods: 4 evict, 2 DaemonSet, 1 need --force" (DaemonSet and mirror pods stay; finished ones are deleted). */
export function dryRunSummary(pods: readonly PodClassification[]): string {
  if (pods.length === 0) return 'no pods';
  const parts = COUNTED.map(({ action, text }) => ({ n: pods.filter((p) => p.action === action).length, text })).filter((x) => x.n > 0);
  return `${pods.length} pod${pods.length === 1 ? '' : 's'}: ${parts.map((x) => `${x.n} ${x.text}`).join(', ')}`;
}

/** The pods worth a line of their own: refused without a flag, or blocked by a budget now. */
function attention(node: string, pods: readonly PodClassification[], limit = 3): CheckItem[] {
  const worth = pods.filter((p) => p.action === 'needs-force' || p.action === 'needs-delete-emptydir-data' || p.action === 'blocked-pdb');
  const items = worth.slice(0, limit).map((p): CheckItem => {
    const pod = `${p.namespace}/${p.name}`;
    const id = `${node}/${pod}`;
    if (p.action === 'blocked-pdb' && p.pdb) {
      const n = p.pdb.disruptionsAllowed;
      return {
        id,
        label: pod,
        state: 'warn',
        detail: `PDB ${p.pdb.namespace}/${p.pdb.name} allows ${n} disruption${n === 1 ? '' : 's'} now: the drain waits`,
      };
    }
    const flag = p.action === 'needs-force' ? '--force' : '--delete-emptydir-data';
    return { id, label: pod, state: 'fail', detail: `needs ${flag}: ${p.reason}` };
  });
  if (worth.length > limit) items.push({ id: `${node}/more`, label: `and ${worth.length - limit} more`, state: 'info' });
  return items;
}

/** Where a node's priority came from, short: "by name", or the selector. */
function sourceText(source: string): string {
  if (source.startsWith('node ')) return 'by name';
  const m = /^selector "(.*)"$/.exec(source);
  return m ? `by ${m[1]}` : source;
}

/**
 * The plan with its dry run. `navarchos`: the controller drains with its own settings, so a
 * pod that needs a flag is worth a warning, not a refusal.
 */
export function planItems(
  plan: Plan,
  dryRun: { done: false } | { done: true; result: RolloutDryRun } | { done: true; error: string } | undefined,
  navarchos: boolean,
): PlanVerdict {
  const result = dryRun?.done && 'result' in dryRun ? dryRun.result : undefined;
  const byNode = new Map<string, NodeDryRun>((result?.drain.nodes ?? []).map((n) => [n.node, n]));
  const refused: string[] = [];
  const items: CheckItem[] = plan.nodes.map((n) => {
    const label = `${n.name}  priority ${n.priority}`;
    const status = [n.ready ? '' : 'NotReady', n.unschedulable ? 'cordoned already' : ''].filter(Boolean).join(', ');
    const source = sourceText(n.source);
    const d = byNode.get(n.name);
    if (!d) {
      return {
        id: n.name,
        label,
        state: dryRun?.done ? 'info' : 'running',
        detail: [status, dryRun?.done ? 'not classified' : 'classifying its pods…', source].filter(Boolean).join(' · '),
      };
    }
    if (d.refused) refused.push(n.name);
    const blocked = d.pods.some((p) => p.action === 'blocked-pdb');
    const item: CheckItem = {
      id: n.name,
      label,
      state: d.refused ? (navarchos ? 'warn' : 'fail') : blocked ? 'warn' : 'ok',
      detail: [status, dryRunSummary(d.pods), source].filter(Boolean).join(' · '),
    };
    const children = attention(n.name, d.pods);
    if (children.length) item.children = children;
    return item;
  });
  if (dryRun?.done && 'error' in dryRun) items.push({ id: 'dry-run', label: 'Dry run', state: 'fail', detail: dryRun.error });
  if (result) {
    const short = result.room.filter((r) => !r.fits);
    if (short.length === 0) {
      // The first batch that moves pods says the most (the others read alike).
      const first = result.room.find((r) => r.detail !== 'nothing to evict') ?? result.room[0];
      const detail =
        result.room.length === 1
          ? (first?.detail ?? '')
          : `every batch fits (${result.room.length} batches); ${first?.nodes.join(', ')}: ${first?.detail ?? ''}`;
      items.push({ id: 'room', label: 'Room on the other nodes', state: 'ok', detail });
    }
    for (const [i, r] of short.slice(0, 3).entries()) {
      items.push({
        id: `room-${i}`,
        label: `Room for ${r.nodes.join(', ')}`,
        state: 'warn',
        detail: r.detail,
        ...(i === 0 ? { hint: 'the evicted pods may stay Pending: the health gate then pauses the rollout' } : {}),
      });
    }
    if (short.length > 3) items.push({ id: 'room-more', label: `and ${short.length - 3} more batches without room`, state: 'warn' });
  }
  for (const [i, w] of plan.warnings.entries()) items.push({ id: `warning-${i}`, label: w, state: 'warn' });
  return { items, refused: navarchos ? [] : refused, ready: result !== undefined || (dryRun?.done === true && 'error' in dryRun) };
}

/**
 * What a rollout marks on its nodes, when its spec asks (kured's --prefer-no-schedule-taint and
 * --pre-reboot-node-labels / --post-reboot-node-labels): a PreferNoSchedule taint on the nodes
 * about to go (the batch being taken and the one after it), so pods evicted now avoid them; the
 * "before" labels while a node is worked on; the "after" labels on the node when it is done (on
 * its replacement in wait mode). A mark that cannot be written is said in the log and never stops
 * the rollout; every mark is idempotent.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { labelNode, setNodeTaint } from '../../kube/nodes/node-marks.js';
import { PREFER_NO_SCHEDULE_TAINT, type RolloutGuards } from '../guards/types.js';
import type { RunContext } from './context.js';
import { appendLog } from './decide.js';

async function tryMark(ctx: RunContext, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    ctx.writer.change((st) => appendLog(st, `could not ${what}: ${describeError(err)} (the rollout goes on)`));
  }
}

/** The PreferNoSchedule taint on the nodes about to go. */
export async function taintUpcoming(ctx: RunContext, names: readonly string[]): Promise<void> {
  if (!ctx.guards.preferNoScheduleTaint) return;
  const taint = { key: PREFER_NO_SCHEDULE_TAINT, value: ctx.spec.name, effect: 'PreferNoSchedule' as const };
  for (const n of names) await tryMark(ctx, `taint node ${n}`, () => setNodeTaint(ctx.kc, n, PREFER_NO_SCHEDULE_TAINT, taint));
}

/** The "before" labels on a node the rollout takes. */
export async function markTaken(ctx: RunContext, name: string): Promise<void> {
  const labels = ctx.guards.labelsBefore;
  if (Object.keys(labels).length) await tryMark(ctx, `label node ${name}`, () => labelNode(ctx.kc, name, labels));
}

/** The "before" labels as a patch that removes them. */
function unmarkLabels(g: RolloutGuards): Record<string, string | null> {
  return Object.fromEntries(Object.keys(g.labelsBefore).map((k) => [k, null]));
}

/** A node done (or skipped): its marks off, and the "after" labels on it or on its replacement. */
export async function markFinished(ctx: RunContext, name: string, replacement: string | undefined, done: boolean): Promise<void> {
  const g = ctx.guards;
  const gone = ctx.spec.replace !== 'uncordon' && done;
  if (!gone) await clearNodeMarks(ctx.kc, g, name).catch((err: unknown) => logMarkError(ctx, name, err));
  if (!done || Object.keys(g.labelsAfter).length === 0) return;
  const target = ctx.spec.replace === 'uncordon' ? name : replacement;
  if (target) await tryMark(ctx, `label node ${target}`, () => labelNode(ctx.kc, target, g.labelsAfter));
}

function logMarkError(ctx: RunContext, name: string, err: unknown): void {
  ctx.writer.change((st) => appendLog(st, `could not take the rollout's marks off node ${name}: ${describeError(err)}`));
}

/** The taint and the "before" labels off a node (abort, completion, a skipped node). */
export async function clearNodeMarks(kc: KubeConfig, g: RolloutGuards, name: string): Promise<void> {
  if (g.preferNoScheduleTaint) await setNodeTaint(kc, name, PREFER_NO_SCHEDULE_TAINT, undefined);
  const labels = unmarkLabels(g);
  if (Object.keys(labels).length) await labelNode(kc, name, labels);
}

/**
 * `fleetdeck rollout list`: the rollouts of every context the dashboard shows (the fleet's, else
 * the kubeconfig's), as its Rollouts tab lists them, or of each --context. Exit codes: 0 every
 * context read, 1 one or more could not be (each said in one line on stderr; the others are
 * printed), 2 usage. One context (--context once, or the only one there is): its errors are the
 * command's, as for any single-cluster command.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { document } from '../../output/format.js';
import { listRolloutLeases } from '../../rollout/ownership.js';
import { listRollouts } from '../../rollout/state.js';
import { asciiOnly, requireOutput, type GlobalOptions } from '../../session/options.js';
import { requireCredentials, startSession } from '../../session/session.js';
import { write } from './lines.js';
import { type RolloutRow, rolloutRows, rolloutTable } from './list.js';

interface Target {
  context: string;
  kc: KubeConfig;
}

/** Each --context (checked as kubectl would), else every context of the dashboard. */
function targets(opts: GlobalOptions): { list: Target[]; files: string[] } {
  const given = (opts.context ?? []).filter(Boolean);
  if (given.length > 0) {
    const session = startSession(opts, { useFleetFile: false });
    return { list: session.several('rollout list'), files: session.files };
  }
  const session = startSession(opts, { showFleetProblems: true });
  return { list: session.contexts.map(({ name }) => ({ context: name, kc: session.kc(name) })), files: session.files };
}

async function readOne({ context, kc }: Target): Promise<RolloutRow[]> {
  requireCredentials(context, kc);
  const [states, leases] = await Promise.all([listRollouts(kc), listRolloutLeases(kc)]);
  return rolloutRows(context, states, leases, Date.now());
}

const warn = (text: string) => process.stderr.write(`fleetdeck: ${text}\n`);

export async function runRolloutList(opts: GlobalOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const { list, files } = targets(opts);
  if (list.length === 0) throw new UserError(`no kube contexts (${files.join(', ') || 'no kubeconfig file found'})`, 2);
  const single = list.length === 1;
  const read = await Promise.allSettled(list.map(readOne));
  const rows: RolloutRow[] = [];
  const errors: { context: string; error: string }[] = [];
  read.forEach((r, i) => {
    const { context } = list[i]!;
    if (r.status === 'fulfilled') rows.push(...r.value);
    else if (single) throw r.reason;
    else errors.push({ context, error: (r.reason as Error).message.replace(`context ${context}: `, '') });
  });
  for (const e of errors) warn(`context ${e.context}: rollouts not read: ${e.error}`);
  const contexts = list.map((t) => t.context);
  if (output !== 'text') write(document(output, { context: single ? contexts[0] : null, contexts, rollouts: rows, errors }));
  else if (rows.length > 0) for (const line of rolloutTable(rows, Date.now(), asciiOnly(opts), !single)) write(line);
  else if (errors.length < list.length) write(`No rollouts in ${contexts.filter((c) => !errors.some((e) => e.context === c)).join(', ')}.`);
  return errors.length > 0 ? 1 : 0;
}

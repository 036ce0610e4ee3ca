/** `fleetdeck rollout cleanup`: the runner Jobs that finished, and the runner's account once no rollout runs in the cluster. */
import { UsageError } from '../../errors.js';
import { asciiOnly, requireOutput, type GlobalOptions } from '../../session/options.js';
import { confirm, interactive } from '../../session/prompt.js';
import { startSession } from '../../session/session.js';
import { toAscii } from '../../checklist/checklist.js';
import { cleanup, cleanupPlan } from '../../rollout/in-cluster/cleanup.js';
import { runnerSettings, type InClusterFlags } from '../../rollout/in-cluster/manifests.js';
import { cleanupLines } from './in-cluster.js';
import { write } from './lines.js';
import { streamItem } from '../../output/format.js';

export interface CleanupOptions extends GlobalOptions, InClusterFlags {
  yes?: boolean;
  dryRun?: boolean;
}

export async function runRolloutCleanup(opts: CleanupOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const session = startSession(opts);
  if (!opts.dryRun) session.assertWritable('rollout cleanup deletes Jobs and RBAC', ' (use --dry-run to see what it would delete)');
  // The flags and the context checked before --yes is asked for.
  const s = runnerSettings(opts);
  const { kc, context } = session.one('a cleanup works on one cluster');
  if (!opts.dryRun && !opts.yes && !interactive())
    throw new UsageError('rollout cleanup deletes objects: confirm with --yes (or look first with --dry-run)');
  const plan = await cleanupPlan(kc, s);
  const say = (l: string) => write(ascii ? toAscii(l) : l);
  if (output === 'text') {
    say(`In-cluster rollout runners in ${context} (namespace ${s.namespace}):`);
    for (const l of cleanupLines(plan, s)) say(l);
  }
  if (opts.dryRun) {
    if (output !== 'text')
      write(
        streamItem(output, {
          kind: 'plan',
          jobs: plan.jobs,
          access: plan.access,
          accessObjects: plan.accessObjects,
          keptFor: plan.keptFor,
        }),
      );
    return 0;
  }
  // Nothing there: nothing to confirm.
  if (plan.jobs.length === 0 && !plan.access) {
    if (output !== 'text') write(streamItem(output, { kind: 'result', deleted: [], keptFor: plan.keptFor }));
    return 0;
  }
  if (!opts.yes && !(await confirm('Delete these?'))) {
    write('Nothing was changed.');
    return 1;
  }
  const deleted = await cleanup(kc, plan, s);
  if (output !== 'text') write(streamItem(output, { kind: 'result', deleted, keptFor: plan.keptFor }));
  else say(deleted.length ? `Deleted ${deleted.join(', ')}.` : 'Nothing to delete.');
  return 0;
}

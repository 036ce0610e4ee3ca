/**
 * `fleetdeck certs renew [all|NAME…]`: the plan (old not-after → new, Secrets, restarts,
 * kubeconfigs), confirmed (or --yes), then the renewal as rows. --dry-run prints the plan only.
 */
import { fleetFilePath } from '../config/fleet-config.js';
import { UsageError } from '../errors.js';
import { type RenewPlan, planRenew } from '../day2/renew/plan.js';
import { planLines, renewedLines } from '../day2/renew/plan-lines.js';
import { type RenewResult, runRenew } from '../day2/renew/run.js';
import type { RenewTarget } from '../day2/renew/target.js';
import { rotatePlanLines, selectCas } from '../day2/renew/rotate-ca/plan.js';
import { readRotation, rotationUnfinished } from '../day2/renew/rotate-ca/record.js';
import { planRotate, runRotate } from '../day2/renew/rotate-ca/run.js';
import { StepRunner } from '../install/runner.js';
import { document } from '../output/format.js';
import type { OutputFormat } from '../output/formats.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';
import { confirm, interactive } from '../session/prompt.js';
import { type Session, startSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';
import { fleetTargets } from './backup/target.js';
import { controlPlaneKubeconfigPath } from './install/resolve.js';
import { lineReporter, write } from './install/lines.js';

export interface CertsRenewOptions extends GlobalOptions {
  rotateCa?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** The fleet's clusters, from the fleet file (or --hosting-context), and the install's kubeconfig. */
function renewTarget(session: Session): RenewTarget {
  const fleet = fleetTargets(session, 'certs renew');
  return { ...fleet, kubeconfigPath: controlPlaneKubeconfigPath(fleetFilePath(), fleet.controlPlane.context) };
}

async function confirmed(opts: CertsRenewOptions, question = 'Renew these certificates?'): Promise<boolean> {
  if (opts.yes) return true;
  if (!interactive()) throw new UsageError('certs renew changes the control plane: confirm with --yes (or look first with --dry-run)');
  if (await confirm(question)) return true;
  write('Nothing was changed.');
  return false;
}

function resultDoc(plan: RenewPlan, dryRun: boolean, result?: RenewResult, steps: unknown[] = []) {
  return { ok: result ? result.ok : true, dryRun, plan, steps, certs: result?.certs ?? [] };
}

/** `--rotate-ca`: the three-phase hand-over, planned, confirmed, run as rows. */
async function rotateCa(target: RenewTarget, names: string[], opts: CertsRenewOptions, output: OutputFormat): Promise<number> {
  const text = output === 'text';
  const plan = await planRotate(target, names);
  if (text) for (const l of rotatePlanLines(plan)) write(l);
  if (opts.dryRun) {
    if (text) write('\nDry run: nothing was changed.');
    else write(document(output, { ok: true, dryRun: true, plan, steps: [], certs: [] }));
    return 0;
  }
  if (!(await confirmed(opts, 'Rotate these CAs?'))) return 1;
  if (text) write('');
  const runner = new StepRunner(text ? lineReporter(asciiOnly(opts)) : () => {});
  const result = await runRotate(target, names, runner, runSignal());
  if (!text) write(document(output, { ok: result.ok, dryRun: false, plan: result.plan, steps: runner.items(), certs: result.certs }));
  else if (result.ok) write('\nCAs rotated. fleetdeck certs shows the new CAs and leaves.');
  else
    write('\nThe rotation stopped. Fix what the failed row says and run the same command again: it continues at the phase it stopped in.');
  return result.ok ? 0 : 1;
}

/** Exit 0 when renewed (or the dry run planned), 1 when a step failed, 2 for usage errors (and --read-only). */
export async function runCertsRenew(names: string[], opts: CertsRenewOptions): Promise<number> {
  const output = requireOutput(opts.output);
  if (opts.rotateCa) selectCas(names);
  const session = startSession(opts);
  if (!opts.dryRun) session.assertWritable("certs renew changes the control plane's certificates", ' (use --dry-run to see its plan)');
  const text = output === 'text';
  const target = renewTarget(session);
  if (opts.rotateCa) return rotateCa(target, names, opts, output);
  if (rotationUnfinished(await readRotation(target.hosting.kc, target.namespace)))
    throw new UsageError('certs renew: a CA rotation did not finish; continue it first with certs renew --rotate-ca');
  const plan = await planRenew(target, names);
  if (text) for (const l of planLines(plan)) write(l);
  if (opts.dryRun) {
    if (text) write('\nDry run: nothing was changed.');
    else write(document(output, resultDoc(plan, true)));
    return 0;
  }
  if (!(await confirmed(opts))) return 1;
  if (text) write('');
  const runner = new StepRunner(text ? lineReporter(asciiOnly(opts)) : () => {});
  const result = await runRenew(target, names, runner, runSignal());
  if (!text) write(document(output, resultDoc(result.plan, false, result, runner.items())));
  else if (result.ok) write(`\n${renewedLines(result.plan, result.certs).join('\n')}`);
  else write('\nThe renewal stopped. Fix what the failed row says and run the same command again: it continues where it stopped.');
  return result.ok ? 0 : 1;
}

/**
 * `fleetdeck rollout create|resume|abort|watch|list`: the rollout workflow in plain mode. Every
 * change prints one line (text) or one JSON object per line (-o json). Exit codes: 0 the
 * rollout completed (or the dry run found nothing refused; abort and list succeeded), 1 it
 * failed, paused, was aborted or the confirmation was declined, 2 usage. The output is in
 * rollout/lines.ts, the spec from the flags in rollout/spec.ts.
 */
import { inClusterDefaults } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { initialState, resolvePlan, type Plan } from '../rollout/plan.js';
import { listPlanNodes } from '../rollout/nodes.js';
import { abortRollout, readAbortNodes } from '../rollout/runner/abort.js';
import { abortDoneText, abortPreviewLines } from '../rollout/runner/abort-nodes.js';
import { dryRunRollout, type RolloutDryRun } from '../rollout/runner/dry-run.js';
import { blockingHolder, ownedElsewhereMessage } from '../rollout/ownership.js';
import { createRollout, mustReadRollout } from '../rollout/state.js';
import type { RolloutSpec } from '../rollout/types.js';
import type { GuardFlags } from '../rollout/guards/spec-flags.js';
import { toAscii } from '../checklist/checklist.js';
import { asciiOnly, requireOutput, type GlobalOptions } from '../session/options.js';
import { confirm, interactive } from '../session/prompt.js';
import { type OneContext, type Session, startSession } from '../session/session.js';
import { drive, liveView } from './rollout/drive.js';
import { runnerSettings, type InClusterFlags } from '../rollout/in-cluster/manifests.js';
import { inClusterPlanLines, startedJson, startedLines } from './rollout/in-cluster.js';
import { startInCluster } from '../rollout/in-cluster/start.js';
import { runAsRunner } from './rollout/runner-mode.js';
import { parseListen } from './rollout/metrics-listen.js';
import { redactedState } from '../rollout/guards/redact.js';
import { dryRunJson, dryRunLines, planLines, write } from './rollout/lines.js';
import { chooseName, explicitName, readFileSpec, requireInputs, specFromOptions } from './rollout/spec.js';
import { watchUntilEnd } from './rollout/watch.js';
import { type OutputFormat, streamItem } from '../output/format.js';
import { ROLLOUT_WRITES } from '../report/rollout/writes.js';

/** A --selector or --node flag, with the --priority that followed it. */
export interface RolloutTarget {
  kind: 'selector' | 'node';
  value: string;
  priority?: number;
}

export interface RolloutCommandOptions extends GlobalOptions, InClusterFlags {
  yes?: boolean;
  forceTakeover?: boolean;
  /** Run it in the cluster, as a Job (create, resume). */
  inCluster?: boolean;
  /** This process is the in-cluster runner (the Job's command). */
  runner?: boolean;
  /** HOST:PORT to serve the rollout's Prometheus metrics on while it runs here. */
  metricsListen?: string;
}

export interface RolloutCreateOptions extends RolloutCommandOptions, GuardFlags {
  targets?: RolloutTarget[];
  filename?: string;
  name?: string;
  maxUnavailable?: number;
  replace?: string;
  force?: boolean;
  deleteEmptydirData?: boolean;
  /** Per-node drain timeout, ms. */
  timeout?: number;
  healthPasses?: number;
  healthInterval?: number;
  healthTimeout?: number;
  dryRun?: boolean;
}

/** The one context a rollout command works on: --context (once), else the kubeconfig's current context. */
function rolloutContext(session: Session, required: boolean): OneContext {
  const need = required ? { required: 'rollout create needs --context (the cluster whose nodes are replaced)' } : {};
  return session.one('a rollout works on one cluster', need);
}

/** Where a new rollout runs: --in-cluster / --no-in-cluster, else the fleet file's setting for the context. */
function inClusterRunner(opts: RolloutCreateOptions, context: string) {
  const fleet = inClusterDefaults(context);
  if (!(opts.inCluster ?? fleet.inCluster)) return undefined;
  return runnerSettings({ runnerNamespace: opts.runnerNamespace ?? fleet.namespace, image: opts.image ?? fleet.image });
}

/** Prints the plan and the dry run; resolves with the nodes' refusals (a flag is needed). */
function printPlan(spec: RolloutSpec, plan: Plan, dry: RolloutDryRun, output: OutputFormat, ascii: boolean) {
  if (output === 'text') {
    for (const l of [...planLines(spec, plan), ...dryRunLines(dry, plan)]) write(ascii ? toAscii(l) : l);
  } else {
    write(streamItem(output, dryRunJson(spec, plan, dry)));
  }
  return dry.drain.nodes.filter((n) => n.refused);
}

/** "Start rollout N: cordon, drain and wait for the replacement of 3 nodes of C?" */
function startQuestion(spec: RolloutSpec, plan: Plan, context: string): string {
  const what = spec.replace === 'wait' ? 'wait for the replacement of' : spec.replace === 'delete-node' ? 'delete' : 'uncordon';
  const n = plan.nodes.length;
  return `\nStart rollout ${spec.name}: cordon, drain and ${what} ${n} node${n === 1 ? '' : 's'} of ${context}?`;
}

/**
 * `fleetdeck rollout create`: resolves the nodes (Navarchos' priority rules), prints the
 * ordered list and the dry run (every pod's fate, the room check), then — confirmed, or
 * --yes — records the rollout in the cluster and runs it here, a line per change.
 */
export async function runRolloutCreate(opts: RolloutCreateOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const session = startSession(opts);
  if (!opts.dryRun) session.assertWritable(ROLLOUT_WRITES.create, ' (use --dry-run to see what it would do)');
  // Every missing input in one line, then every flag and the context checked, then --yes:
  // all before anything is read from the cluster.
  const fileSpec = readFileSpec(opts.filename);
  requireInputs(opts, fileSpec);
  const given = explicitName(opts, fileSpec);
  const { kc, context } = rolloutContext(session, true);
  const draft = specFromOptions(opts, context, given ?? 'draft', fileSpec);
  if (opts.metricsListen) parseListen(opts.metricsListen);
  const runner = inClusterRunner(opts, context);
  if (!opts.dryRun && !opts.yes && !interactive())
    throw new UsageError('rollout create changes the cluster: confirm with --yes (or look first with --dry-run)');
  const spec: RolloutSpec = { ...draft, name: await chooseName(kc, context, given) };
  const plan = resolvePlan(await listPlanNodes(kc, context), spec);
  const refused = printPlan(spec, plan, await dryRunRollout(kc, spec, plan), output, ascii);
  if (runner && output === 'text') for (const l of inClusterPlanLines(initialState(spec, plan), runner)) write(l);
  if (opts.dryRun) return refused.length ? 1 : 0;
  if (refused.length) {
    const message = `nothing was changed: ${refused.map((n) => n.refused).join('; ')}; give the flag, or move or delete those pods, and run it again`;
    if (output === 'text') write(`\n${message}`);
    else write(streamItem(output, { kind: 'result', refused: refused.map((n) => ({ node: n.node, message: n.refused })) }));
    return 1;
  }
  const where = runner ? ` in the cluster (Job in ${runner.namespace}, with the RBAC above)` : '';
  if (!opts.yes && !(await confirm(`${startQuestion(spec, plan, context).slice(0, -1)}${where}?`))) {
    write('Nothing was changed.');
    return 1;
  }
  const created = await createRollout(kc, initialState(spec, plan));
  if (output === 'text')
    write(
      `\nRollout ${spec.name} recorded in ConfigMap kube-system/fleetdeck-rollout-${spec.name}; watch it elsewhere with: fleetdeck rollout watch ${spec.name} --context ${context}`,
    );
  if (runner) {
    const started = await startInCluster(kc, created.state, runner, (l) => output === 'text' && write(l));
    if (output !== 'text') write(streamItem(output, startedJson(spec.name, runner, started)));
    else for (const l of startedLines(spec.name, context, runner, started)) write(l);
    return 0;
  }
  return drive(kc, created.state, context, { output, ascii, forceTakeover: false, metricsListen: opts.metricsListen }, opts);
}

/** `fleetdeck rollout resume NAME`: claims the rollout and continues it from every node's recorded phase. */
export async function runRolloutResume(name: string, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const session = startSession(opts);
  session.assertWritable(ROLLOUT_WRITES.resume);
  const { kc, context } = rolloutContext(session, false);
  if (opts.metricsListen) parseListen(opts.metricsListen);
  if (opts.runner) return runAsRunner(kc, name, context, { output, ascii, metricsListen: opts.metricsListen }, opts);
  // --runner-namespace and --image checked before the cluster is read.
  const runner = opts.inCluster ? runnerSettings(opts) : undefined;
  const { state } = await mustReadRollout(kc, name, context);
  if (state.phase === 'Completed' || state.phase === 'Aborted')
    throw new UserError(`rollout ${name} is ${state.phase}: there is nothing to resume`);
  const other = await blockingHolder(kc, state);
  if (other && !opts.forceTakeover) throw new UserError(ownedElsewhereMessage(name, other, context));
  if (output === 'text') {
    const done = state.nodes.filter((n) => n.phase === 'done').length;
    write(
      `Resuming rollout ${name} on ${context}: ${state.phase}, ${done}/${state.nodes.length} nodes done${state.message ? ` (${state.message})` : ''}`,
    );
  }
  if (runner) {
    if (output === 'text') for (const l of inClusterPlanLines(state, runner)) write(l);
    if (!opts.yes && !interactive()) throw new UsageError('rollout resume --in-cluster changes the cluster: confirm with --yes');
    if (!opts.yes && !(await confirm(`Start a Job in ${runner.namespace} to resume rollout ${name}, with the RBAC above?`))) {
      write('Nothing was changed.');
      return 1;
    }
    const started = await startInCluster(kc, state, runner, (l) => output === 'text' && write(l));
    if (output !== 'text') write(streamItem(output, startedJson(name, runner, started)));
    else for (const l of startedLines(name, context, runner, started)) write(l);
    return 0;
  }
  return drive(kc, state, context, { output, ascii, forceTakeover: opts.forceTakeover === true, metricsListen: opts.metricsListen }, opts);
}

/** `fleetdeck rollout abort NAME`: stops the rollout (its owner too) and uncordons what it cordoned and did not finish. */
export async function runRolloutAbort(name: string, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const session = startSession(opts);
  session.assertWritable(ROLLOUT_WRITES.abort);
  const { kc, context } = rolloutContext(session, false);
  if (!opts.yes && !interactive()) throw new UsageError('rollout abort stops the rollout: confirm with --yes');
  const { state } = await mustReadRollout(kc, name, context);
  if (state.phase === 'Completed') throw new UserError(`rollout ${name} is Completed: there is nothing to abort`);
  const owner = await blockingHolder(kc, state);
  if (output === 'text') {
    const done = state.nodes.filter((n) => n.phase === 'done').length;
    write(`Rollout ${name} on ${context}: ${state.phase}, ${done}/${state.nodes.length} nodes done.`);
    if (owner) write(`It is being run by ${owner.holder}: that fleetdeck stops.`);
    for (const line of abortPreviewLines(await readAbortNodes(kc, state))) write(line);
  }
  if (!opts.yes && !(await confirm(`Abort rollout ${name}?`))) {
    write('Nothing was changed.');
    return 1;
  }
  const { state: final, ...done } = await abortRollout(kc, name);
  if (output !== 'text') write(streamItem(output, { kind: 'result', ...done, state: redactedState(final) }));
  else write(`Rollout ${name} aborted; ${abortDoneText(done)}.`);
  return final.phase === 'Aborted' ? 0 : 1;
}

/**
 * `fleetdeck rollout watch [NAME]`: the rollout's progress as lines (or JSON lines), live from
 * its ConfigMap, until it ends (0 completed, 1 paused, failed, aborted, or its owner stopped
 * reporting). Without a name: every rollout of the cluster, until Ctrl-C (0).
 */
export async function runRolloutWatch(name: string | undefined, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const { kc, context } = rolloutContext(startSession(opts), false);
  if (name) await mustReadRollout(kc, name, context);
  const live = name ? liveView(opts, ascii, `reading rollout ${name}…`) : undefined;
  return watchUntilEnd({ kc, context, name, output, ascii, live });
}

/**
 * The rollouts feed's workflows bound to the session's KubeConfigs, the same as `fleetdeck
 * rollout` calls: watchRollouts and watchNavarchos per context, the plan and the dry run of
 * `rollout create`, createRollout + runRollout, resume, abortRollout, createNodeRollout. Loaded
 * (its own chunk) when the Rollouts tab is first shown. Every change passes the write gate, which
 * refuses it under --read-only.
 */
import type { Session } from '../../session/session.js';
import { inClusterDefaults } from '../../config/fleet-config.js';
import { UserError } from '../../errors.js';
import { runnerSettings } from '../../rollout/in-cluster/manifests.js';
import { startInCluster } from '../../rollout/in-cluster/start.js';
import { createNodeRollout } from '../../kube/navarchos/create.js';
import { watchNavarchos } from '../../kube/navarchos/watch.js';
import { initialState, resolvePlan } from '../../rollout/plan.js';
import { abortRollout } from '../../rollout/runner/abort.js';
import { dryRunRollout } from '../../rollout/runner/dry-run.js';
import { watchRolloutLeases } from '../../rollout/ownership.js';
import { runRollout } from '../../rollout/runner/run.js';
import { createRollout, mustReadRollout, readRollout, watchRollouts } from '../../rollout/state.js';
import { listPlanNodes } from '../../rollout/nodes.js';
import type { RolloutWork } from './feed.js';

/** The runner's namespace and image for a context: the fleet file's, else the defaults. */
function fleetRunner(context: string) {
  const d = inClusterDefaults(context);
  return runnerSettings({ runnerNamespace: d.namespace, image: d.image });
}

/** The workflows on the session's clusters (the feed binds them again when the session changes). */
export function rolloutWork(session: Pick<Session, 'kc'>): RolloutWork {
  const kc = (context: string) => session.kc(context);
  return {
    watch: (context, handlers) => watchRollouts(kc(context), handlers),
    watchLeases: (context, handlers) => watchRolloutLeases(kc(context), handlers),
    watchNavarchos: (context, onChange, signal) => watchNavarchos(kc(context), onChange, signal),
    listNodes: (context) => listPlanNodes(kc(context), context),
    dryRun: (spec, plan) => dryRunRollout(kc(spec.context), spec, plan),
    run: async (spec, signal, inCluster) => {
      const k = kc(spec.context);
      if (await readRollout(k, spec.name)) throw new UserError(`a rollout named ${spec.name} exists already in ${spec.context}`);
      // As `rollout create`: the plan from the nodes as they are now.
      const plan = resolvePlan(await listPlanNodes(k, spec.context), spec);
      const runner = inCluster ? fleetRunner(spec.context) : undefined;
      const created = await createRollout(k, initialState(spec, plan));
      if (runner) return startInCluster(k, created.state, runner, () => {});
      return runRollout(k, created.state, { context: spec.context }, () => {}, signal);
    },
    inClusterDefault: (context) => inClusterDefaults(context).inCluster,
    resume: async (context, name, signal) => {
      const k = kc(context);
      const { state } = await mustReadRollout(k, name, context);
      // A rollout that ran in the cluster resumes there: a new Job, as `resume --in-cluster`.
      if (state.runner) return startInCluster(k, state, { namespace: state.runner.namespace, image: state.runner.image }, () => {});
      return runRollout(k, state, { context }, () => {}, signal);
    },
    abort: (context, name, signal) => abortRollout(kc(context), name, () => {}, signal),
    createNodeRollout: (context, request) => createNodeRollout(kc(context), request),
  };
}

/**
 * The Rollouts tab's link to the clusters (RolloutsDeps), from the same workflows as
 * `fleetdeck rollout`: watchRollouts and watchNavarchos per context, the plan and the dry run of
 * `rollout create`, createRollout + runRollout, resume, abortRollout, createNodeRollout. Loaded
 * (its own chunk) when the tab is first shown. Rollouts run in this process until they end or
 * fleetdeck quits, which pauses them (resumable, as after Ctrl-C in `fleetdeck rollout create`).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { contextConfigs } from '../kube/kubeconfig.js';
import { createNodeRollout, watchNavarchos } from '../kube/navarchos.js';
import { initialState, resolvePlan } from '../rollout/plan.js';
import { abortRollout, dryRunRollout, runRollout } from '../rollout/runner.js';
import { createRollout, mustReadRollout, readRollout, watchRollouts } from '../rollout/state.js';
import { listPlanNodes } from '../rollout/nodes.js';
import type { RolloutsDeps } from '../screens/rollouts/deps.js';

/** How long quitting waits for the rollouts run here to record their pause. */
const CLOSE_WAIT_MS = 15_000;

export interface RolloutTools {
  deps: RolloutsDeps;
  /** Pause the rollouts run here (they record Paused, resumable) and wait for them, briefly. */
  close(): Promise<void>;
}

/** `config()` is the dashboard's kubeconfig as it is now (a sandbox started or a fleet installed from the dashboard changes it). */
export function rolloutTools(config: () => KubeConfig, { readOnly = false }: { readOnly?: boolean } = {}): RolloutTools {
  const kcFor = contextConfigs(config);

  // The screen refuses already; this is the second lock (--read-only never changes a cluster).
  const refuse = (what: string) => Promise.reject(new UserError(`read-only: ${what} is refused (start fleetdeck without --read-only)`));
  const quit = new AbortController();
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => {});
    return p;
  };

  const deps: RolloutsDeps = {
    watch: (context, handlers) => watchRollouts(kcFor(context), handlers),
    watchNavarchos: (context, onChange, signal) => watchNavarchos(kcFor(context), onChange, signal),
    listNodes: (context) => listPlanNodes(kcFor(context), context),
    dryRun: (spec, plan) => dryRunRollout(kcFor(spec.context), spec, plan),
    run: (spec) =>
      readOnly ? refuse('starting a rollout') : track(
        (async () => {
          const kc = kcFor(spec.context);
          if (await readRollout(kc, spec.name)) throw new UserError(`a rollout named ${spec.name} exists already in ${spec.context}`);
          // As `rollout create`: the plan from the nodes as they are now.
          const plan = resolvePlan(await listPlanNodes(kc, spec.context), spec);
          const created = await createRollout(kc, initialState(spec, plan));
          return runRollout(kc, created.state, {}, () => {}, quit.signal);
        })(),
      ),
    resume: (context, name) =>
      readOnly ? refuse('resuming') : track(
        (async () => {
          const kc = kcFor(context);
          const { state } = await mustReadRollout(kc, name, context);
          return runRollout(kc, state, {}, () => {}, quit.signal);
        })(),
      ),
    abort: (context, name) => (readOnly ? refuse('aborting') : track(abortRollout(kcFor(context), name, () => {}, quit.signal))),
    createNodeRollout: (context, request) => (readOnly ? refuse('creating a NodeRollout') : createNodeRollout(kcFor(context), request)),
  };

  return {
    deps,
    async close() {
      quit.abort(new Error('fleetdeck quit'));
      if (running.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}

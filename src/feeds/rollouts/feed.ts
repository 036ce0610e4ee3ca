/**
 * The Rollouts tab's feed: a watch of fleetdeck's rollouts, one of their Leases and one of
 * Navarchos in every context of the dashboard, into the rollouts slice; the new-rollout wizard
 * (wizard.ts); and the actions started from the screen (run, resume, abort), tracked there with
 * their outcome. Its workflows load (their own chunk) when the tab is first shown; it runs as
 * long as the dashboard, not the tab, so a rollout started here keeps running while the operator
 * looks elsewhere, and quitting pauses what runs here (resumable).
 */
import type { LeaseWatchHandlers } from '../../kube/records/lease.js';
import type { NavarchosState, NodeRolloutRequest, NodeRolloutSummary } from '../../kube/navarchos/objects.js';
import type { Plan } from '../../rollout/plan.js';
import type { RolloutDryRun } from '../../rollout/runner/dry-run.js';
import type { RolloutWatchHandlers } from '../../rollout/state.js';
import type { PlanNode, RolloutSpec } from '../../rollout/types.js';
import type { Session } from '../../session/session.js';
import type { RolloutActions } from '../../store/actions.js';
import { updateSlice } from '../../store/fleet-store.js';
import { rolloutsFailed, watchedContexts } from '../../store/rollouts.js';
import { type Feed, type FeedFactory, heldSession } from '../feed.js';
import { lazyFeed } from '../lazy.js';
import { PerContext } from '../per-context.js';
import { followHolders } from './holders.js';
import { RolloutRuns } from './runs.js';
import { rolloutWatches } from './watches.js';
import { RolloutWizard } from './wizard.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The workflows the feed calls, by context name (work.ts binds them to the session; tests pass fakes). */
export interface RolloutWork {
  /** Watch the fleetdeck rollouts (their ConfigMaps) of a context, as watchRollouts does. */
  watch: (context: string, handlers: RolloutWatchHandlers) => { stop(): Promise<void> | void };
  /** Watch the rollouts' Leases of a context (who runs each, how fresh). Absent: the list shows the records' owners only. */
  watchLeases?: (context: string, handlers: LeaseWatchHandlers) => { stop(): Promise<void> | void };
  /** Watch Navarchos' NodeRollouts and NodeReplacements of a context; stops when `signal` aborts. Absent: Navarchos is not looked for. */
  watchNavarchos?: (context: string, onChange: (state: NavarchosState) => void, signal: AbortSignal) => unknown;
  listNodes: (context: string) => Promise<PlanNode[]>;
  dryRun: (spec: RolloutSpec, plan: Plan) => Promise<RolloutDryRun>;
  /**
   * Create the rollout and run it to its end (rejects when it cannot start); stops (Paused) when
   * `signal` aborts. In the cluster: resolves once its Job's pod runs.
   */
  run: (spec: RolloutSpec, signal: AbortSignal, inCluster?: boolean) => Promise<unknown>;
  /** The fleet file's in-cluster default for a context. */
  inClusterDefault?: (context: string) => boolean;
  resume: (context: string, name: string, signal: AbortSignal) => Promise<unknown>;
  abort: (context: string, name: string, signal: AbortSignal) => Promise<unknown>;
  createNodeRollout: (context: string, request: NodeRolloutRequest) => Promise<NodeRolloutSummary>;
}

export interface RolloutsFeedOptions {
  /** The workflows bound to a session (default: work.ts, loaded when the tab is first shown). */
  work?: (session: Session) => RolloutWork | Promise<RolloutWork>;
  /** How long quitting waits for the rollouts run here to record their pause. */
  closeWaitMs?: number;
}

const realWork = async (session: Session): Promise<RolloutWork> => (await import('./work.js')).rolloutWork(session);

export function rolloutsFeed(o: RolloutsFeedOptions = {}): FeedFactory {
  return ({ store }): Feed<'rollouts'> =>
    heldSession('rollouts', (session) => {
      let work: RolloutWork | undefined;
      let unsubscribe = () => {};
      const runs = new RolloutRuns(store);
      let stopped = false;
      const watches = new PerContext(
        rolloutWatches(store, () => work!),
        (context, err) => updateSlice(store, 'rollouts', (s) => rolloutsFailed(s, context, message(err))),
      );
      const wizard = new RolloutWizard(store, () => work, runs);
      const load = lazyFeed(
        async () => {
          // Bound once to the session as it is at each call: a restart needs no new workflows.
          work = await (o.work ?? realWork)(session);
          // Stopped while loading: nothing to follow.
          if (stopped) return work;
          const follow = (order: readonly string[]) => {
            updateSlice(store, 'rollouts', (s) => watchedContexts(s, order));
            watches.set(order, session);
          };
          follow(store.getState().status.order);
          const unfollow = store.subscribe((s, prev) => {
            if (s.status.order !== prev.status.order) follow(s.status.order);
          });
          const unhold = followHolders(store);
          unsubscribe = () => {
            unfollow();
            unhold();
          };
          return work;
        },
        (status) => updateSlice(store, 'rollouts', (s) => ({ ...s, status })),
      );
      const actions: RolloutActions = {
        show: () => void load.start(),
        resume: (context, name) => work && runs.track('resume', context, name, (signal) => work!.resume(context, name, signal)),
        abort: (context, name) => work && runs.track('abort', context, name, (signal) => work!.abort(context, name, signal)),
        run: (spec, inCluster) => work && runs.track('run', spec.context, spec.name, (signal) => work!.run(spec, signal, inCluster)),
        wizard: {
          open: (context) => wizard.open(context),
          send: (intent) => wizard.send(intent),
          confirm: () => wizard.confirm(),
          close: () => wizard.close(),
        },
      };
      return {
        actions,
        restart() {
          if (work && !stopped) watches.restart(store.getState().status.order, session);
        },
        async stop() {
          stopped = true;
          unsubscribe();
          watches.stop();
          await runs.close(o.closeWaitMs);
        },
      };
    });
}

/**
 * The Rollouts tab's feed: a watch of fleetdeck's rollouts, one of their Leases and one of Navarchos in every
 * context of the dashboard, into the rollouts slice; and the actions started from the screen
 * (run, resume, abort), tracked there with their outcome. Runs as long as the dashboard, not the
 * tab, so a rollout started from the wizard keeps running while the operator looks elsewhere;
 * quitting pauses what runs here (resumable, as after Ctrl-C in `fleetdeck rollout create`).
 */
import type { LeaseWatchHandlers } from '../kube/records/lease.js';
import type { NavarchosState, NodeRolloutRequest, NodeRolloutSummary } from '../kube/navarchos/objects.js';
import type { Plan } from '../rollout/plan.js';
import type { RolloutDryRun } from '../rollout/runner/dry-run.js';
import type { RolloutWatchHandlers } from '../rollout/state.js';
import type { PlanNode, RolloutSpec } from '../rollout/types.js';
import type { RolloutActions } from '../store/actions.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import {
  actionChanged,
  actionKey,
  leaseChanged,
  leaseDeleted,
  leasesListed,
  navarchosSeen,
  rolloutChanged,
  rolloutDeleted,
  rolloutsFailed,
  rolloutsListed,
  watchedContexts,
  type ActionStatus,
  type RolloutsSlice,
} from '../store/rollouts.js';

/** The workflows the feed calls, by context name (src/feeds/rollout-work.ts binds them to the session; tests pass fakes). */
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

export interface RolloutsFeed extends Omit<RolloutActions, 'show'> {
  /** Watch exactly these contexts (new ones start, gone ones stop). */
  setContexts(contexts: readonly string[]): void;
  /** Start every watch again (the session changed: new KubeConfigs). */
  restart(): void;
  /** Stop every watch; pause the rollouts run here and wait for them, at most `waitMs`. */
  close(waitMs?: number): Promise<void>;
}

/** How long quitting waits for the rollouts run here to record their pause. */
const CLOSE_WAIT_MS = 15_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function startRolloutsFeed(store: FleetStore, work: RolloutWork): RolloutsFeed {
  const watches = new Map<string, { stop: () => void }>();
  const quit = new AbortController();
  const running = new Set<Promise<unknown>>();
  let stopped = false;

  const update = (change: (s: RolloutsSlice) => RolloutsSlice) => {
    if (!stopped) updateSlice(store, 'rollouts', change);
  };
  // Events of a watch that was stopped since are dropped.
  const from = (context: string, slot: object) => (change: (s: RolloutsSlice) => RolloutsSlice) => {
    if (watches.get(context) === slot) update(change);
  };

  const start = (context: string) => {
    // Registered first: the watch may answer at once.
    const slot = { stop: () => {} };
    watches.set(context, slot);
    const write = from(context, slot);
    const own = work.watch(context, {
      onList: (states) => write((s) => rolloutsListed(s, context, states)),
      onState: (state) => write((s) => rolloutChanged(s, context, state)),
      onDeleted: (name) => write((s) => rolloutDeleted(s, context, name)),
      onError: (error) => write((s) => rolloutsFailed(s, context, error)),
    });
    let leases: { stop(): Promise<void> | void } | undefined;
    try {
      leases = work.watchLeases?.(context, {
        onList: (ls) => write((s) => leasesListed(s, context, ls)),
        onChanged: (l) => write((s) => leaseChanged(s, context, l)),
        onDeleted: (l) => write((s) => leaseDeleted(s, context, l)),
        onError: (error) => write((s) => rolloutsFailed(s, context, `Leases: ${error}`)),
      });
    } catch (err) {
      write((s) => rolloutsFailed(s, context, `Leases: ${message(err)}`));
    }
    const navarchos = new AbortController();
    try {
      work.watchNavarchos?.(context, (n) => write((s) => navarchosSeen(s, context, n)), navarchos.signal);
    } catch (err) {
      write((s) => rolloutsFailed(s, context, `Navarchos: ${message(err)}`));
    }
    slot.stop = () => {
      navarchos.abort();
      void Promise.resolve(own.stop()).catch(() => {});
      if (leases) void Promise.resolve(leases.stop()).catch(() => {});
    };
  };

  const stopWatch = (context: string) => {
    watches.get(context)?.stop();
    watches.delete(context);
  };

  const track = (kind: ActionStatus['kind'], context: string, name: string, work: () => Promise<unknown>) => {
    const key = actionKey(context, name);
    update((s) => actionChanged(s, key, { kind, state: 'running' }));
    let promise: Promise<unknown>;
    try {
      promise = work();
    } catch (err) {
      promise = Promise.reject(err);
    }
    running.add(promise);
    promise
      .then(
        () => update((s) => actionChanged(s, key, { kind, state: 'done' })),
        (err: unknown) => update((s) => actionChanged(s, key, { kind, state: 'failed', error: message(err) })),
      )
      .finally(() => running.delete(promise));
  };

  return {
    setContexts(contexts) {
      if (stopped) return;
      const wanted = new Set(contexts);
      for (const name of [...watches.keys()]) if (!wanted.has(name)) stopWatch(name);
      update((s) => watchedContexts(s, contexts));
      for (const name of contexts) if (!watches.has(name)) start(name);
    },
    restart() {
      if (stopped) return;
      const contexts = [...watches.keys()];
      for (const name of contexts) stopWatch(name);
      for (const name of contexts) start(name);
    },
    run: (spec, inCluster) => track('run', spec.context, spec.name, () => work.run(spec, quit.signal, inCluster)),
    inClusterDefault: (context) => work.inClusterDefault?.(context) ?? false,
    resume: (context, name) => track('resume', context, name, () => work.resume(context, name, quit.signal)),
    abort: (context, name) => track('abort', context, name, () => work.abort(context, name, quit.signal)),
    createNodeRollout: (context, request) => work.createNodeRollout(context, request),
    listNodes: (context) => work.listNodes(context),
    dryRun: (spec, plan) => work.dryRun(spec, plan),
    async close(waitMs = CLOSE_WAIT_MS) {
      stopped = true;
      for (const name of [...watches.keys()]) stopWatch(name);
      quit.abort(new Error('fleetdeck quit'));
      if (running.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
      clearTimeout(timer);
    },
  };
}

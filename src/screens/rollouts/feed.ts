import { useEffect, useState } from 'react';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { NavarchosState, NodeRolloutRequest, NodeRolloutSummary } from '../../kube/navarchos.js';
import type { RolloutSpec, RolloutState } from '../../rollout/types.js';
import type { RolloutsDeps } from './deps.js';
import { actionKey, type ContextRollouts } from './rows.js';

/** An action started from the screen on a fleetdeck rollout. */
export interface ActionStatus {
  kind: 'run' | 'resume' | 'abort';
  state: 'running' | 'done' | 'failed';
  /** Why it failed, one line. */
  error?: string;
}

export interface FeedState {
  /** The contexts watched, in display order. */
  contexts: string[];
  byContext: Record<string, ContextRollouts>;
  /** By actionKey(context, name). */
  actions: Record<string, ActionStatus>;
}

/**
 * The Rollouts screen's data: a watch of fleetdeck's rollouts and one of Navarchos in every
 * context, into a small store the screen reads; and the actions it starts (run, resume,
 * abort), whose outcome it shows. Lives as long as the dashboard, not the tab, so a rollout
 * started from the wizard keeps running while the operator looks elsewhere.
 */
export interface RolloutFeed {
  store: StoreApi<FeedState>;
  /** Watch exactly these contexts (new ones start, gone ones stop). */
  setContexts(contexts: readonly string[]): void;
  run(spec: RolloutSpec): void;
  resume(context: string, name: string): void;
  abort(context: string, name: string): void;
  createNodeRollout(context: string, request: NodeRolloutRequest): Promise<NodeRolloutSummary>;
  /** Stop every watch (actions under way are the deps' to stop). */
  stop(): void;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createRolloutFeed(deps: RolloutsDeps): RolloutFeed {
  const store = createStore<FeedState>(() => ({ contexts: [], byContext: {}, actions: {} }));
  const watches = new Map<string, { stop: () => void }>();
  let stopped = false;

  const patch = (context: string, change: (c: ContextRollouts) => ContextRollouts) => {
    if (stopped || !watches.has(context)) return;
    store.setState((s) => {
      const current = s.byContext[context] ?? { rollouts: {}, listed: false };
      return { byContext: { ...s.byContext, [context]: change(current) } };
    });
  };
  const withoutError = (c: ContextRollouts): ContextRollouts => {
    const { error: _error, ...rest } = c;
    return rest;
  };

  const start = (context: string) => {
    const own = deps.watch(context, {
      onList: (states) => patch(context, (c) => ({ ...withoutError(c), listed: true, rollouts: Object.fromEntries(states.map((s) => [s.spec.name, s])) })),
      onState: (state: RolloutState) => patch(context, (c) => ({ ...withoutError(c), listed: true, rollouts: { ...c.rollouts, [state.spec.name]: state } })),
      onDeleted: (name) =>
        patch(context, (c) => {
          const rollouts = { ...c.rollouts };
          delete rollouts[name];
          return { ...c, rollouts };
        }),
      onError: (error) => patch(context, (c) => ({ ...c, error })),
    });
    const navarchos = new AbortController();
    try {
      deps.watchNavarchos?.(context, (n: NavarchosState) => patch(context, (c) => ({ ...c, navarchos: n })), navarchos.signal);
    } catch (err) {
      patch(context, (c) => ({ ...c, error: `Navarchos: ${message(err)}` }));
    }
    return {
      stop: () => {
        navarchos.abort();
        void Promise.resolve(own.stop()).catch(() => {});
      },
    };
  };

  const setAction = (key: string, status: ActionStatus) => {
    if (!stopped) store.setState((s) => ({ actions: { ...s.actions, [key]: status } }));
  };
  const track = (kind: ActionStatus['kind'], context: string, name: string, work: () => Promise<unknown>) => {
    const key = actionKey(context, name);
    setAction(key, { kind, state: 'running' });
    let promise: Promise<unknown>;
    try {
      promise = work();
    } catch (err) {
      promise = Promise.reject(err);
    }
    promise.then(
      () => setAction(key, { kind, state: 'done' }),
      (err: unknown) => setAction(key, { kind, state: 'failed', error: message(err) }),
    );
  };

  return {
    store,
    setContexts(contexts) {
      if (stopped) return;
      const wanted = new Set(contexts);
      for (const [name, w] of watches) {
        if (wanted.has(name)) continue;
        w.stop();
        watches.delete(name);
      }
      const byContext: Record<string, ContextRollouts> = {};
      for (const name of contexts) {
        byContext[name] = store.getState().byContext[name] ?? { rollouts: {}, listed: false };
      }
      store.setState({ contexts: [...contexts], byContext });
      for (const name of contexts) {
        if (watches.has(name)) continue;
        // Registered first: the watch may answer at once.
        const slot = { stop: () => {} };
        watches.set(name, slot);
        slot.stop = start(name).stop;
      }
    },
    run: (spec) => track('run', spec.context, spec.name, () => deps.run(spec)),
    resume: (context, name) => track('resume', context, name, () => deps.resume(context, name)),
    abort: (context, name) => track('abort', context, name, () => deps.abort(context, name)),
    createNodeRollout: (context, request) => deps.createNodeRollout(context, request),
    stop() {
      stopped = true;
      for (const w of watches.values()) w.stop();
      watches.clear();
    },
  };
}

/**
 * The feed for the dashboard's contexts, once `deps` are there (undefined before). Stopped
 * when the deps change or the dashboard goes.
 */
export function useRolloutFeed(deps: RolloutsDeps | undefined, contexts: readonly string[]): RolloutFeed | undefined {
  const [feed, setFeed] = useState<RolloutFeed | undefined>(undefined);
  useEffect(() => {
    if (!deps) return;
    const f = createRolloutFeed(deps);
    setFeed(f);
    return () => {
      f.stop();
      setFeed(undefined);
    };
  }, [deps]);
  const key = contexts.join('\n');
  useEffect(() => {
    feed?.setContexts(key === '' ? [] : key.split('\n'));
  }, [feed, key]);
  return feed;
}

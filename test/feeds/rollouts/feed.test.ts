import { describe, expect, it, vi } from 'vitest';
import { type RolloutWork, rolloutsFeed } from '../../../src/feeds/rollouts/feed.js';
import type { NavarchosState } from '../../../src/kube/navarchos/objects.js';
import type { RolloutWatchHandlers } from '../../../src/rollout/state.js';
import type { RolloutSpec, RolloutState } from '../../../src/rollout/types.js';
import type { RolloutActions } from '../../../src/store/actions.js';
import { createFleetStore, type FleetStore, setContexts } from '../../../src/store/fleet-store.js';
import { startFeed, storeSession } from '../../helpers/feeds/feeds.js';
import { info } from '../../helpers/screens/fleets.js';

const NOT_INSTALLED: NavarchosState = { installed: false, synced: true, rollouts: [], replacements: [] };

function spec(name: string, context: string): RolloutSpec {
  return {
    name,
    context,
    nodeSelectors: [{ selector: 'role=worker', priority: 10 }],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'wait',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 60_000 },
    health: { passes: 3, intervalMs: 5_000, timeoutMs: 60_000 },
  };
}

const state = (name: string, context: string, phase: RolloutState['phase'] = 'Running'): RolloutState => ({
  spec: spec(name, context),
  phase,
  nodes: [],
  log: [],
  updatedAt: new Date().toISOString(),
});

/** Fake workflows: watches the test drives, actions that wait for the test (or the quit signal). */
function fakeWork() {
  const watchers = new Map<string, RolloutWatchHandlers>();
  const navarchos = new Map<string, (s: NavarchosState) => void>();
  const signals: AbortSignal[] = [];
  let finish: (err?: Error) => void = () => {};
  const work: RolloutWork = {
    watch: (context, handlers) => {
      watchers.set(context, handlers);
      return { stop: () => void watchers.delete(context) };
    },
    watchNavarchos: (context, onChange, signal) => {
      navarchos.set(context, onChange);
      signal.addEventListener('abort', () => navarchos.delete(context));
    },
    listNodes: async () => [],
    dryRun: async () => {
      throw new Error('not used');
    },
    run: (_spec, signal) => {
      signals.push(signal);
      return new Promise((resolve, reject) => {
        finish = (err) => (err ? reject(err) : resolve(undefined));
        // Quitting pauses the rollout: the runner records Paused and returns.
        signal.addEventListener('abort', () => resolve(undefined));
      });
    },
    resume: async () => {},
    abort: async () => {
      throw new Error('read-only: aborting is refused');
    },
    createNodeRollout: async () => ({
      name: 'rollout-x',
      phase: 'New',
      targets: [],
      priorities: [],
      replacementsCreated: 0,
      replacementsCompleted: 0,
    }),
  };
  return { work, watchers, navarchos, signals, finish: (err?: Error) => finish(err) };
}

/** The feed as the dashboard starts it, shown (its workflows loaded, every context of the store watched). */
async function shown(store: FleetStore, work: RolloutWork) {
  const feed = startFeed(store, rolloutsFeed({ work: () => work }));
  const actions = feed.actions as RolloutActions;
  actions.show();
  await vi.waitFor(() => expect(store.getState().rollouts.status).toBe('on'));
  return { feed, actions };
}

describe('the rollouts feed', () => {
  it('watches exactly the contexts it is given and writes what the watches say into the slice', async () => {
    const store = createFleetStore([info('a'), info('b')]);
    const fake = fakeWork();
    await shown(store, fake.work);
    expect([...fake.watchers.keys()]).toEqual(['a', 'b']);
    expect(store.getState().rollouts.contexts).toEqual(['a', 'b']);

    fake.watchers.get('a')!.onList!([state('r1', 'a')]);
    fake.watchers.get('b')!.onError!('forbidden: configmaps');
    fake.navarchos.get('a')!(NOT_INSTALLED);
    let slice = store.getState().rollouts;
    expect(slice.byContext.a).toMatchObject({ listed: true, navarchos: NOT_INSTALLED });
    expect(Object.keys(slice.byContext.a!.rollouts)).toEqual(['r1']);
    expect(slice.byContext.b).toMatchObject({ listed: false, error: 'forbidden: configmaps' });

    fake.watchers.get('a')!.onState(state('r2', 'a', 'Paused'));
    fake.watchers.get('a')!.onDeleted!('r1');
    slice = store.getState().rollouts;
    expect(Object.keys(slice.byContext.a!.rollouts)).toEqual(['r2']);

    // A context gone is no longer watched, and what a stopped watch still says is dropped.
    const stale = fake.watchers.get('b')!;
    setContexts(store, [info('a')]);
    expect([...fake.watchers.keys()]).toEqual(['a']);
    expect(fake.navarchos.has('b')).toBe(false);
    stale.onList!([state('late', 'b')]);
    expect(store.getState().rollouts.byContext.b).toBeUndefined();
  });

  it('restart watches every context again (a new session); close stops them', async () => {
    const store = createFleetStore([info('a')]);
    const fake = fakeWork();
    const { feed } = await shown(store, fake.work);
    const first = fake.watchers.get('a');
    feed.restart(storeSession(store));
    expect(fake.watchers.get('a')).not.toBe(first);
    await feed.stop();
    expect(fake.watchers.size).toBe(0);
  });

  it('tracks the actions it starts, and says why one failed in one line', async () => {
    const store = createFleetStore([info('a')]);
    const fake = fakeWork();
    const { actions: feed } = await shown(store, fake.work);
    feed.run(spec('r1', 'a'));
    expect(store.getState().rollouts.actions['a/r1']).toEqual({ kind: 'run', state: 'running' });
    fake.finish();
    await vi.waitFor(() => expect(store.getState().rollouts.actions['a/r1']).toEqual({ kind: 'run', state: 'done' }));

    feed.abort('a', 'r1');
    await vi.waitFor(() =>
      expect(store.getState().rollouts.actions['a/r1']).toEqual({
        kind: 'abort',
        state: 'failed',
        error: 'read-only: aborting is refused',
      }),
    );
  });

  it('quitting pauses the rollouts run here and waits for them to record it', async () => {
    const store = createFleetStore([info('a')]);
    const fake = fakeWork();
    const { feed, actions } = await shown(store, fake.work);
    actions.run(spec('r1', 'a'));
    expect(fake.signals[0]!.aborted).toBe(false);
    await feed.stop();
    expect(fake.signals[0]!.aborted).toBe(true);
  });
});

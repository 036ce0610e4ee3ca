/**
 * The new-rollout wizard in the rollouts feed: the operator's intents in, the state in the
 * slice out; what the state needs (the nodes, the name and the dry run, the start) done by the
 * feed, an answer for a page left since dropped.
 */
import { describe, expect, it, vi } from 'vitest';
import type { RolloutDryRun } from '../../../src/rollout/runner/dry-run.js';
import type { PlanNode } from '../../../src/rollout/types.js';
import type { RolloutActions } from '../../../src/store/actions.js';
import type { NewRolloutIntent, NewRolloutState } from '../../../src/store/rollout-wizard.js';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { fakeRolloutWork } from '../../helpers/feeds/rollouts-feed.js';
import { startFeed } from '../../helpers/feeds/feeds.js';
import { rolloutsFeed } from '../../../src/feeds/rollouts/feed.js';
import { info } from '../../helpers/screens/fleets.js';

const NODES: PlanNode[] = ['a', 'b'].map((x) => ({ name: `w-${x}`, labels: { role: 'worker' }, unschedulable: false, ready: true }));
const fits = (nodes: string[]): RolloutDryRun => ({
  drain: { evictionVersion: 'policy/v1', nodes: nodes.map((node) => ({ node, pods: [] })), room: { fits: true, detail: 'fits' } },
  room: [{ priority: 10, nodes, fits: true, detail: 'fits' }],
});

async function wizardOn(over: Partial<Parameters<typeof fakeRolloutWork>[0]> = {}) {
  const store = createFleetStore([info('c1'), info('c2')]);
  const fake = fakeRolloutWork({ nodes: NODES, dryRun: fits, ...over });
  const listed: string[] = [];
  const listNodes = fake.work.listNodes;
  fake.work.listNodes = (context) => {
    listed.push(context);
    return listNodes(context);
  };
  const actions = startFeed(store, rolloutsFeed({ work: () => fake.work })).actions as RolloutActions;
  actions.show();
  await vi.waitFor(() => expect(store.getState().rollouts.status).toBe('on'));
  const state = () => store.getState().rollouts.wizard!;
  return { store, actions, wizard: actions.wizard, state, listed, calls: fake.calls, work: fake.work };
}

/** Open the wizard on `context` and answer every page (no selector, `names` picked) up to the plan. */
async function toThePlan(wizard: RolloutActions['wizard'], state: () => NewRolloutState, context: string, names: string[]): Promise<void> {
  wizard.open(context);
  wizard.send({ type: 'context', context });
  await vi.waitFor(() => expect(state().nodes).toBeDefined());
  const intents: NewRolloutIntent[] = [{ type: 'selector', text: '' }, { type: 'pickNodes', names }, { type: 'priorities' }];
  // Where Navarchos runs there is no options page: its settings are the controller's.
  if (!state().navarchos) intents.push({ type: 'options' });
  for (const intent of intents) wizard.send(intent);
}

describe('the new-rollout wizard in the feed', () => {
  it('lists a context’s nodes once, again for another context', async () => {
    const { wizard, state, listed } = await wizardOn();
    wizard.open('c1');
    wizard.send({ type: 'context', context: 'c1' });
    await vi.waitFor(() => expect(state().nodes).toEqual(NODES));
    wizard.send({ type: 'draft', text: 'role=worker' });
    expect(state().draftMatch).toEqual({ names: ['w-a', 'w-b'] });
    wizard.send({ type: 'back' });
    wizard.send({ type: 'context', context: 'c1' });
    wizard.send({ type: 'back' });
    wizard.send({ type: 'context', context: 'c2' });
    await vi.waitFor(() => expect(listed).toEqual(['c1', 'c2']));
  });

  it('the plan page names the rollout and runs the dry run; an answer for a plan left since is dropped', async () => {
    const { wizard, state, work } = await wizardOn();
    const held: ((r: RolloutDryRun) => void)[] = [];
    work.dryRun = () => new Promise((resolve) => held.push(resolve));
    await toThePlan(wizard, state, 'c1', ['w-a']);
    expect(state().page).toBe('plan');
    expect(state().name).toMatch(/^rollout-\d{8}-\d{4}$/);
    expect(state().dryRun).toEqual({ done: false });

    // When the operator goes back before the dry run answers, its answer is dropped
    wizard.send({ type: 'back' });
    held[0]!(fits(['w-a']));
    await Promise.resolve();
    expect(state().dryRun).toEqual({ done: false });

    // Back on the plan page, a new dry run; its answer is the plan's
    wizard.send({ type: 'options' });
    expect(held).toHaveLength(2);
    held[1]!(fits(['w-a']));
    await vi.waitFor(() => expect(state().verdict?.ready).toBe(true));
  });

  it('confirming runs the rollout here and says what started; a NodeRollout where Navarchos runs', async () => {
    const { wizard, state, calls, store } = await wizardOn({
      navarchos: { c2: { installed: true, synced: true, rollouts: [], replacements: [] } },
    });
    await toThePlan(wizard, state, 'c1', ['w-a']);
    await vi.waitFor(() => expect(state().verdict?.ready).toBe(true));
    wizard.confirm();
    wizard.confirm(); // a second Enter in the same moment starts nothing more
    expect(calls.runs.map((s) => s.nodeNames)).toEqual([[{ name: 'w-a', priority: 10 }]]);
    expect(state().started).toEqual({ context: 'c1', kind: 'fleetdeck', name: state().name });
    expect(store.getState().rollouts.actions[`c1/${state().name}`]).toEqual({ kind: 'run', state: 'running' });

    await toThePlan(wizard, state, 'c2', ['w-b']);
    expect(state().navarchos).toBe(true);
    expect(state().page).toBe('plan');
    await vi.waitFor(() => expect(state().verdict?.ready).toBe(true));
    wizard.confirm();
    wizard.confirm();
    await vi.waitFor(() => expect(state().started).toEqual({ context: 'c2', kind: 'navarchos', name: 'rollout-abcde' }));
    wizard.confirm();
    expect(calls.creates).toEqual([{ context: 'c2', request: { nodeSelectors: [], nodeNames: [{ name: 'w-b', priority: 10 }] } }]);
  });
});

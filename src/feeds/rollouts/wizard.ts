/**
 * The new-rollout wizard in the feed: the operator's intents go through the model (wizard-model.ts)
 * into the slice, and what they need follows from the state reached: the context's nodes listed
 * once per context, a name and the dry run when the plan page opens (a superseded run's answer
 * dropped), and on confirming the rollout run here or in the cluster, or a NodeRollout created.
 */
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import { type NewRolloutIntent, type NewRolloutState, startable } from '../../store/rollout-wizard.js';
import type { RolloutWork } from './feed.js';
import type { RolloutRuns } from './runs.js';
import { initialNewRolloutState, type NewRolloutAction, newRolloutReducer } from './wizard-model.js';
import { newRolloutName, nodeRolloutFrom, specFrom } from './wizard-spec.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class RolloutWizard {
  /** Bumped by every open and close: an answer for an earlier wizard is dropped. */
  private generation = 0;
  private dryRunGeneration = 0;
  private listed: string | undefined;

  constructor(
    private readonly store: FleetStore,
    /** The workflows bound to the session as it is now (undefined until loaded). */
    private readonly work: () => RolloutWork | undefined,
    private readonly runs: RolloutRuns,
  ) {}

  private get state(): NewRolloutState | undefined {
    return this.store.getState().rollouts.wizard;
  }

  private apply(action: NewRolloutAction): void {
    updateSlice(this.store, 'rollouts', (s) => {
      if (!s.wizard) return s;
      const wizard = newRolloutReducer(s.wizard, action);
      return wizard === s.wizard ? s : { ...s, wizard };
    });
  }

  /** An answer that arrived for the wizard open when it was asked. */
  private answer(generation: number, action: NewRolloutAction): void {
    if (generation === this.generation) this.apply(action);
  }

  open(context?: string): void {
    this.generation++;
    this.listed = undefined;
    updateSlice(this.store, 'rollouts', (s) => ({ ...s, wizard: initialNewRolloutState(context) }));
  }

  close(): void {
    this.generation++;
    updateSlice(this.store, 'rollouts', (s) => {
      const { wizard: _closed, ...rest } = s;
      return rest;
    });
  }

  send(intent: NewRolloutIntent): void {
    const before = this.state;
    if (!before) return;
    if (intent.type === 'context') {
      const navarchos = this.store.getState().rollouts.byContext[intent.context]?.navarchos?.installed === true;
      this.apply({ ...intent, navarchos, inCluster: this.work()?.inClusterDefault?.(intent.context) ?? false });
    } else this.apply(intent);
    this.follow(before);
  }

  /** What the state reached needs: the nodes, a name with a new plan, the dry run on the plan page. */
  private follow(before: NewRolloutState): void {
    const s = this.state;
    const work = this.work();
    if (!s || !work) return;
    const generation = this.generation;
    if (s.context && s.page !== 'context' && s.nodes === undefined && s.nodesError === undefined && this.listed !== s.context) {
      const context = s.context;
      this.listed = context;
      work.listNodes(context).then(
        (nodes) => this.state?.context === context && this.answer(generation, { type: 'nodes', nodes }),
        (err: unknown) => this.state?.context === context && this.answer(generation, { type: 'nodesFailed', error: message(err) }),
      );
    }
    if (s.page !== 'plan') {
      this.dryRunGeneration++;
      return;
    }
    if (s.plan && (s.plan !== before.plan || s.page !== before.page) && s.context) {
      const taken = Object.keys(this.store.getState().rollouts.byContext[s.context]?.rollouts ?? {});
      this.apply({ type: 'named', name: newRolloutName(taken) });
    }
    const named = this.state;
    if (!named?.plan || named.dryRun !== undefined || !named.context) return;
    const run = ++this.dryRunGeneration;
    const current = () => this.dryRunGeneration === run && generation === this.generation;
    this.apply({ type: 'dryRun', done: false });
    work.dryRun(specFrom(named, named.name), named.plan).then(
      (result) => current() && this.apply({ type: 'dryRun', done: true, result }),
      (err: unknown) => current() && this.apply({ type: 'dryRun', done: true, error: message(err) }),
    );
  }

  /** Start what the plan page shows (after the operator confirmed it); its outcome goes to the slice. */
  confirm(): void {
    const s = this.state;
    const work = this.work();
    if (!s || !work || !startable(s) || !s.context || !s.plan) return;
    const { context } = s;
    const generation = this.generation;
    this.apply({ type: 'starting' });
    if (s.navarchos) {
      work.createNodeRollout(context, nodeRolloutFrom(s)).then(
        (created) => this.answer(generation, { type: 'started', started: { context, kind: 'navarchos', name: created.name } }),
        (err: unknown) => this.answer(generation, { type: 'startFailed', error: message(err) }),
      );
      return;
    }
    const spec = specFrom(s, s.name);
    const inCluster = s.inCluster;
    this.runs.track('run', context, spec.name, (signal) => work.run(spec, signal, inCluster));
    this.apply({ type: 'started', started: { context, kind: 'fleetdeck', name: spec.name } });
  }
}

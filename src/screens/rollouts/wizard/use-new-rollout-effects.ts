/** The wizard's effects (the nodes listed once per context, the dry run when the plan page opens) and its keys. */
import { useInput } from 'ink';
import { useEffect, useRef, type Dispatch } from 'react';
import type { Plan } from '../../../rollout/plan.js';
import type { RolloutDryRun } from '../../../rollout/runner/dry-run.js';
import type { PlanNode, RolloutSpec } from '../../../rollout/types.js';
import { specFrom } from './spec.js';
import type { NewRolloutAction, NewRolloutPage, NewRolloutState } from './use-new-rollout-state.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The nodes of the chosen context, listed once per context. */
export function useNodeListing(
  state: NewRolloutState,
  dispatch: Dispatch<NewRolloutAction>,
  listNodes: (context: string) => Promise<PlanNode[]>,
) {
  const { page } = state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: listed once per context, again only after the list was dropped
  useEffect(() => {
    const context = state.context;
    if (!context || page === 'context' || state.nodes !== undefined || state.nodesError !== undefined) return;
    let current = true;
    listNodes(context).then(
      (nodes) => current && dispatch({ type: 'nodes', nodes }),
      (err: unknown) => current && dispatch({ type: 'nodesFailed', error: message(err) }),
    );
    return () => {
      current = false;
    };
  }, [state.context, page === 'context', state.nodes === undefined, state.nodesError]);
}

/** The dry run, when the plan page opens with a plan and no result yet; a superseded run's answer is dropped. */
export function useDryRun(
  state: NewRolloutState,
  dispatch: Dispatch<NewRolloutAction>,
  dryRun: (spec: RolloutSpec, plan: Plan) => Promise<RolloutDryRun>,
  name: string,
) {
  const { page } = state;
  const dryRunGeneration = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one dry run per plan page visit and plan; the spec is read when it starts
  useEffect(() => {
    if (page !== 'plan') {
      dryRunGeneration.current++;
      return;
    }
    if (!state.plan || state.dryRun !== undefined || !state.context) return;
    const run = ++dryRunGeneration.current;
    const current = () => dryRunGeneration.current === run;
    dispatch({ type: 'dryRun', done: false });
    dryRun(specFrom(state, name), state.plan).then(
      (result) => current() && dispatch({ type: 'dryRun', done: true, result }),
      (err: unknown) => current() && dispatch({ type: 'dryRun', done: true, error: message(err) }),
    );
  }, [page, state.plan, state.dryRun === undefined]);
}

export interface WizardKeys {
  maxScroll: number;
  planBudget: number;
  confirm: () => void;
  onExit: () => void;
}

/** The keys of every page: Esc back (or out), Ctrl-C out, and the page's own. */
export function useWizardKeys(page: NewRolloutPage, dispatch: Dispatch<NewRolloutAction>, k: WizardKeys) {
  useInput((input, key) => {
    if (key.ctrl && input === 'c') return k.onExit();
    if (key.escape) {
      if (page === 'context') return k.onExit();
      return dispatch({ type: 'back' });
    }
    const up = key.upArrow || input === 'k';
    const down = key.downArrow || input === 'j';
    const digit = /^[0-9]$/.test(input);
    if (page === 'priorities') {
      if (up) dispatch({ type: 'focus', delta: -1 });
      else if (down) dispatch({ type: 'focus', delta: 1 });
      else if (digit) dispatch({ type: 'priorityDigit', digit: Number(input) });
      else if (key.backspace || key.delete) dispatch({ type: 'priorityBackspace' });
      else if (key.return) dispatch({ type: 'priorities' });
    } else if (page === 'options') {
      if (up) dispatch({ type: 'focus', delta: -1 });
      else if (down) dispatch({ type: 'focus', delta: 1 });
      else if (key.leftArrow || input === 'h') dispatch({ type: 'optionChange', delta: -1 });
      else if (key.rightArrow || input === 'l') dispatch({ type: 'optionChange', delta: 1 });
      else if (input === ' ') dispatch({ type: 'optionToggle' });
      else if (digit) dispatch({ type: 'maxUnavailableDigit', digit: Number(input) });
      else if (key.return) dispatch({ type: 'options' });
    } else if (page === 'plan') {
      if (down) dispatch({ type: 'scroll', delta: 1, max: k.maxScroll });
      else if (up) dispatch({ type: 'scroll', delta: -1, max: k.maxScroll });
      else if (key.pageDown) dispatch({ type: 'scroll', delta: k.planBudget, max: k.maxScroll });
      else if (key.pageUp) dispatch({ type: 'scroll', delta: -k.planBudget, max: k.maxScroll });
      else if (input === 'i') dispatch({ type: 'toggleInCluster' });
      else if (key.return) k.confirm();
    }
  });
}

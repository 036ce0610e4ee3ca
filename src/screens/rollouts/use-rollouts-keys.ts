import { useInput, type Key } from 'ink';
import { useRef, type Dispatch } from 'react';
import type { RolloutActions } from '../../store/actions.js';
import type { FleetState, FleetStore } from '../../store/fleet-store.js';
import type { LogTarget } from '../../store/log-target.js';
import { splitKeys } from '../split-keys.js';
import { abortRefusal, resumeRefusal } from './refusals.js';
import type { RolloutRef, RolloutRow } from './rows.js';
import { rolloutsReducer, type RolloutsAction, type RolloutsNav } from './use-rollouts-state.js';

export interface RolloutsKeysOptions {
  store: FleetStore;
  actions: RolloutActions;
  nav: RolloutsNav;
  dispatch: Dispatch<RolloutsAction>;
  rows: readonly RolloutRow[];
  /** Node rows of the open rollout. */
  nodeCount: number;
  readOnly: boolean;
  active: boolean;
  /** `l` on a node of the open rollout whose drain a budget blocks: the blocked pod's log. */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
}

/** A move key as a delta in `count` rows, or undefined (j/k, arrows, PgDn/PgUp, g/G). */
function moveOf(input: string, key: Key, count: number): { delta: number } | { index: number } | undefined {
  if (input === 'j' || key.downArrow) return { delta: 1 };
  if (input === 'k' || key.upArrow) return { delta: -1 };
  if (key.pageDown) return { delta: 10 };
  if (key.pageUp) return { delta: -10 };
  if (input === 'g' || key.home) return { index: 0 };
  if (input === 'G' || key.end) return { index: count - 1 };
  return undefined;
}

/** The Rollouts tab's keys: the list, the progress view (a, r), and the y/n of an abort. */
export function useRolloutsKeys({
  store,
  actions,
  nav,
  dispatch: send,
  rows,
  nodeCount,
  readOnly,
  active,
  onOpenLogs,
}: RolloutsKeysOptions): void {
  // The navigation as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(nav);
  live.current = nav;
  const dispatch = (action: RolloutsAction) => {
    live.current = rolloutsReducer(live.current, action);
    send(action);
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
    },
    { isActive: active && nav.view !== 'wizard' },
  );

  function handle(n: RolloutsNav, input: string, key: Key): void {
    if (n.confirm) confirmKeys(n, input, key);
    else if (n.view === 'list') listKeys(n, input, key);
    else if (n.view === 'progress' && n.open) progressKeys(n, n.open, input, key);
  }

  function confirmKeys(n: RolloutsNav, input: string, key: Key): void {
    if (input === 'y' || input === 'Y') {
      if (n.open) actions.abort(n.open.context, n.open.name);
      dispatch({ type: 'confirmed', notice: 'abort requested' });
    } else if (input === 'n' || input === 'N' || key.escape || (key.ctrl && input === 'c')) dispatch({ type: 'cancelConfirm' });
  }

  function listKeys(n: RolloutsNav, input: string, key: Key): void {
    const count = rows.length;
    const move = moveOf(input, key, count);
    if (move) dispatch('delta' in move ? { type: 'move', delta: move.delta, count } : { type: 'moveTo', index: move.index, count });
    else if (key.return || key.rightArrow) {
      const row = rows[Math.min(n.selected, count - 1)];
      if (row) dispatch({ type: 'open', ref: row.ref });
    } else if (input === 'n') {
      dispatch(
        store.getState().rollouts.contexts.length
          ? { type: 'newRollout' }
          : { type: 'notice', text: 'no context to roll out: fleetdeck has no kube context' },
      );
    }
  }

  function progressKeys(n: RolloutsNav, open: RolloutRef, input: string, key: Key): void {
    const move = moveOf(input, key, nodeCount);
    if (key.escape || key.leftArrow) dispatch({ type: 'back' });
    else if (move)
      dispatch(
        'delta' in move ? { type: 'rowMove', delta: move.delta, count: nodeCount } : { type: 'rowTo', index: move.index, count: nodeCount },
      );
    else if (input === 'n') dispatch({ type: 'newRollout' });
    else if (input === 'l') {
      const result = blockedPodTarget(store.getState(), open, n.row);
      if (typeof result === 'string') dispatch({ type: 'notice', text: result });
      else onOpenLogs?.(result);
    } else if (input === 'a') {
      const why = abortRefusal(store.getState().rollouts, open, readOnly);
      dispatch(why ? { type: 'notice', text: why } : { type: 'confirm', what: 'abort' });
    } else if (input === 'r') {
      const why = resumeRefusal(store.getState().rollouts, open, readOnly);
      if (why) dispatch({ type: 'notice', text: why });
      else {
        actions.resume(open.context, open.name);
        dispatch({ type: 'notice', text: `resuming ${open.name} here…` });
      }
    }
  }
}

/** The log target of the pod that blocks the drain of the open rollout's node at `row`, or why there is none. */
export function blockedPodTarget(state: FleetState, open: RolloutRef, row: number): LogTarget | string {
  if (open.kind !== 'fleetdeck') return 'logs: open the blocked pod from the Status tab (Navarchos reports no blocking pod)';
  const node = state.rollouts.byContext[open.context]?.rollouts[open.name]?.nodes[row];
  if (!node) return 'no node selected';
  const pdb = node.blockingPdb;
  if (!pdb?.pod) return `no pod blocks the drain of ${node.name}`;
  const [namespace = pdb.namespace, name = ''] = pdb.pod.includes('/') ? pdb.pod.split('/') : [pdb.namespace, pdb.pod];
  return {
    title: `${namespace}/${name} (blocks ${node.name}: PodDisruptionBudget ${pdb.name})`,
    context: open.context,
    namespace,
    pods: [name],
    events: { kind: 'Pod', name, namespace },
  };
}

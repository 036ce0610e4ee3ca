/**
 * The Rollouts tab's keys: the list, one rollout's progress (abort after y/n, resume, the
 * blocked pod's log), and the y/n of an abort. Abort and resume change a cluster: under
 * --read-only they are off the hint line and refused with the gate's line.
 */
import { cursorKeys, type KeyTable, type Live, moveCursor, yesNo } from '../../components/key-actions/index.js';
import type { Actions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { WithApp } from '../keys/app-commands.js';
import { HELP_HINT, QUIT_HINT, SCREENS_HINT } from '../keys/on-app-line.js';
import { abortRefusal, resumeRefusal } from './refusals.js';
import type { RolloutRef, RolloutRow } from './rows.js';
import { blockedPodTarget } from './blocked-pod.js';
import type { RolloutsAction, RolloutsNav } from './use-rollouts-state.js';
import { ROLLOUT_WRITES } from '../../report/rollout/writes.js';

export interface RolloutsKeys extends WithApp {
  nav: Live<RolloutsNav, RolloutsAction>;
  store: FleetStore;
  actions: Actions;
  rows: readonly RolloutRow[];
  /** Node rows of the open rollout. */
  nodeCount: number;
}

/** A page of the progress view's rows (the screen shows about this many). */
const PAGE = 10;

const open = (c: RolloutsKeys): RolloutRef | undefined => c.nav.get().open;

function newRollout(c: RolloutsKeys): void {
  if (c.store.getState().rollouts.contexts.length === 0) {
    c.nav.dispatch({ type: 'notice', text: 'no context to roll out: fleetdeck has no kube context' });
    return;
  }
  const nav = c.nav.get();
  c.actions.rollouts?.wizard.open(nav.open?.context ?? c.rows[nav.selected]?.ref.context ?? c.store.getState().rollouts.contexts[0]);
}

export const ROLLOUT_LIST_KEYS: KeyTable<RolloutsKeys> = {
  title: 'Rollouts',
  actions: [
    { keys: ['n'], description: 'new rollout', run: newRollout },
    {
      keys: ['enter', 'right'],
      label: 'enter',
      description: 'progress',
      run: (c) => {
        const row = c.rows[Math.min(c.nav.get().selected, c.rows.length - 1)];
        if (row) c.nav.dispatch({ type: 'open', ref: row.ref });
      },
    },
    ...cursorKeys<RolloutsKeys>(
      (c, m) => c.nav.dispatch({ type: 'moveTo', index: moveCursor(c.nav.get().selected, m, c.rows.length, PAGE), count: c.rows.length }),
      { space: false },
    ),
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

const fleetdeckOpen = (c: RolloutsKeys) => open(c)?.kind === 'fleetdeck';

export const ROLLOUT_PROGRESS_KEYS: KeyTable<RolloutsKeys> = {
  title: 'Rollout',
  actions: [
    { keys: ['esc', 'left'], label: 'esc', description: 'back', run: (c) => c.nav.dispatch({ type: 'back' }) },
    {
      keys: ['a'],
      description: 'abort (y/n)',
      hint: 'abort',
      // On a Navarchos rollout it says why not.
      visible: fleetdeckOpen,
      dangerous: ROLLOUT_WRITES.abort,
      run: (c) => {
        const ref = open(c);
        if (!ref) return;
        const why = abortRefusal(c.store.getState().rollouts, ref);
        c.nav.dispatch(why ? { type: 'notice', text: why } : { type: 'confirm', what: 'abort' });
      },
    },
    {
      keys: ['r'],
      description: 'resume',
      visible: fleetdeckOpen,
      dangerous: ROLLOUT_WRITES.resume,
      run: (c) => {
        const ref = open(c);
        if (!ref) return;
        const why = resumeRefusal(c.store.getState().rollouts, ref);
        if (why) return c.nav.dispatch({ type: 'notice', text: why });
        c.actions.rollouts?.resume(ref.context, ref.name);
        c.nav.dispatch({ type: 'notice', text: `resuming ${ref.name} here…` });
      },
    },
    ...cursorKeys<RolloutsKeys>(
      (c, m) => c.nav.dispatch({ type: 'rowTo', index: moveCursor(c.nav.get().row, m, c.nodeCount, PAGE), count: c.nodeCount }),
      { words: 'scroll', space: false },
    ),
    {
      keys: ['l'],
      description: 'blocked pod logs',
      hint: 'logs',
      when: fleetdeckOpen,
      run: (c) => {
        const ref = open(c);
        if (!ref) return;
        const target = blockedPodTarget(c.store.getState(), ref, c.nav.get().row);
        if (typeof target === 'string') c.nav.dispatch({ type: 'notice', text: target });
        else c.actions.logs?.openLogs(target);
      },
    },
    { keys: ['n'], description: 'new rollout', hint: 'new', run: newRollout },
    HELP_HINT,
    QUIT_HINT,
    { ...SCREENS_HINT, when: (c) => !fleetdeckOpen(c) },
  ],
};

export const ABORT_CONFIRM_KEYS = yesNo<RolloutsKeys>(
  'Abort?',
  {
    description: 'abort it',
    dangerous: ROLLOUT_WRITES.abort,
    run: (c) => {
      const ref = open(c);
      if (ref) c.actions.rollouts?.abort(ref.context, ref.name);
      c.nav.dispatch({ type: 'confirmed', notice: 'abort requested' });
    },
  },
  { description: 'keep it running', run: (c) => c.nav.dispatch({ type: 'cancelConfirm' }) },
  [{ keys: ['ctrl-c'], description: 'keep it running', visible: false, run: (c) => c.nav.dispatch({ type: 'cancelConfirm' }) }],
);

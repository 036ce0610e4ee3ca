/**
 * The Approvals panel's keys (it takes the whole keyboard while open): j/k select a request, y
 * approves and d denies it, each after a y/n question; esc goes back to the contexts. Approving
 * and denying change a cluster: under --read-only they are refused with the gate's line.
 */
import { cursorKeys, type KeyTable, type Live, moveCursor, yesNo } from '../../components/key-actions/index.js';
import type { CsrSummary } from '../../kube/csr/index.js';
import type { ApprovalActions } from '../../store/actions.js';
import type { WithApp } from '../keys/app-commands.js';
import { QUIT } from '../keys/global.js';
import type { ApprovalsAction, ApprovalsNav, Decision } from './nav.js';

export interface ApprovalsKeys extends WithApp {
  nav: Live<ApprovalsNav, ApprovalsAction>;
  actions: ApprovalActions;
  pending: readonly CsrSummary[];
  /** A decision is under way. */
  busy: boolean;
}

const ask = (c: ApprovalsKeys, decision: Decision) => {
  const csr = c.pending[Math.min(c.nav.get().selected, c.pending.length - 1)];
  if (csr && !c.busy) c.nav.dispatch({ type: 'ask', decision, csr });
};

export const APPROVALS_KEYS: KeyTable<ApprovalsKeys> = {
  title: 'Approvals',
  owns: true,
  actions: [
    {
      keys: ['y'],
      description: 'approve (y/n)',
      hint: 'approve',
      dangerous: 'approve approves certificate requests',
      run: (c) => ask(c, 'approve'),
    },
    { keys: ['d'], description: 'deny (y/n)', hint: 'deny', dangerous: 'approve denies certificate requests', run: (c) => ask(c, 'deny') },
    ...cursorKeys<ApprovalsKeys>(
      (c, m) => c.nav.dispatch({ type: 'select', index: moveCursor(c.nav.get().selected, m, c.pending.length, 3) }),
      { space: false },
    ),
    { keys: ['esc'], description: 'back', run: (c) => c.actions.close() },
    QUIT,
  ],
};

export const DECISION_KEYS = yesNo<ApprovalsKeys>(
  'Approve or deny?',
  {
    description: 'yes',
    run: (c) => {
      const asked = c.nav.get().confirm;
      c.nav.dispatch({ type: 'answered' });
      if (asked?.decision === 'approve') c.actions.approve(asked.csr.name);
      else if (asked) c.actions.deny(asked.csr.name);
    },
  },
  { description: 'no, change nothing', run: (c) => c.nav.dispatch({ type: 'declined' }) },
  [{ ...QUIT, keys: ['ctrl-c'], label: 'ctrl-c', hintLabel: 'ctrl-c', visible: false }],
);

import type { CsrSummary } from '../../kube/csr/index.js';

export type Decision = 'approve' | 'deny';

/** Where the operator is in the Approvals panel: the selected request, the y/n question, the last key's line. */
export interface ApprovalsNav {
  selected: number;
  confirm?: { decision: Decision; csr: CsrSummary };
  notice?: { text: string; kind: 'ok' | 'warn' | 'fail' };
}

export type ApprovalsAction =
  | { type: 'select'; index: number }
  | { type: 'ask'; decision: Decision; csr: CsrSummary }
  | { type: 'answered' }
  | { type: 'declined' };

export const initialApprovalsNav: ApprovalsNav = { selected: 0 };

export function approvalsReducer(nav: ApprovalsNav, a: ApprovalsAction): ApprovalsNav {
  switch (a.type) {
    case 'select':
      return { ...nav, selected: a.index };
    case 'ask':
      return { selected: nav.selected, confirm: { decision: a.decision, csr: a.csr } };
    case 'answered':
      return { selected: nav.selected };
    case 'declined':
      return { selected: nav.selected, notice: { text: 'Nothing was changed.', kind: 'warn' } };
  }
}

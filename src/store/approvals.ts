/**
 * The Approvals panel's slice: the open context's CertificateSigningRequests (live, with their
 * warnings), the watch's error, and the line the last approve or deny answered. Pure reducers;
 * the approvals feed is their only caller.
 */
import type { CsrSummary } from '../kube/csr/index.js';
import type { FeedStatus } from './types.js';

export interface ApprovalsSlice {
  status: FeedStatus;
  /** The context whose panel is open; undefined: closed. */
  context?: string;
  /** Every CSR of that context (undefined until the watch answered). */
  csrs?: CsrSummary[];
  /** Why the watch failed (it retries), one line. */
  error?: string;
  /** The CSR being approved or denied. */
  busy?: string;
  /** What the last approve or deny did, one line. */
  line?: { text: string; kind: 'ok' | 'fail' };
}

export const emptyApprovals = (): ApprovalsSlice => ({ status: 'off' });

/** The panel opens on a context: nothing known of it yet. */
export function approvalsOpened(s: ApprovalsSlice, context: string): ApprovalsSlice {
  return { status: s.status, context };
}

export function approvalsClosed(s: ApprovalsSlice): ApprovalsSlice {
  return { status: s.status };
}

/** The watch answered for `context` (ignored when another context is open by now). */
export function csrsChanged(s: ApprovalsSlice, context: string, csrs: CsrSummary[]): ApprovalsSlice {
  if (s.context !== context) return s;
  const { error: _gone, ...rest } = s;
  return { ...rest, csrs };
}

export function csrsFailed(s: ApprovalsSlice, context: string, error: string): ApprovalsSlice {
  return s.context === context ? { ...s, error } : s;
}

export function decisionStarted(s: ApprovalsSlice, name: string): ApprovalsSlice {
  const { line: _gone, ...rest } = s;
  return { ...rest, busy: name };
}

/** The cluster answered: its line is ok when the request is approved or denied (now or already). */
export function decisionDone(s: ApprovalsSlice, text: string): ApprovalsSlice {
  const { busy: _gone, ...rest } = s;
  return { ...rest, line: { text, kind: /: (approved|denied)$|already/.test(text) ? 'ok' : 'fail' } };
}

/** The pending requests, as the panel lists them. */
export function pendingCsrs(csrs: readonly CsrSummary[] | undefined): CsrSummary[] {
  return (csrs ?? []).filter((c) => c.condition === 'Pending');
}

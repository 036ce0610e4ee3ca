import type { CsrSummary } from '../../kube/csr.js';

/**
 * The Approvals panel's link to the clusters, by context name. The dashboard builds it (loaded
 * when the panel is first opened) from src/kube/csr.ts in src/commands/approvals-dashboard.ts;
 * tests pass fakes.
 */
export interface ApprovalsDeps {
  /**
   * Watch the context's CertificateSigningRequests, as watchCsrs does: `onChange` gets every CSR
   * (with its warnings) after each change. Returns what stops the watch.
   */
  watch: (context: string, onChange: (csrs: CsrSummary[]) => void, onError?: (message: string) => void) => () => void;
  /** Approve a CSR through its approval subresource; resolves with one line saying what happened. */
  approve: (context: string, name: string) => Promise<string>;
  /** Deny a CSR through its approval subresource; resolves with one line saying what happened. */
  deny: (context: string, name: string) => Promise<string>;
}

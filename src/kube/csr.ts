/**
 * CertificateSigningRequests (certificates.k8s.io/v1), the kind's module: summaries and their
 * warnings (csr-summary.ts, pure), the PKCS#10 request inside (csr-request.ts), reading them once
 * or live (csr-watch.ts), and approving or denying through the approval subresource (csr-decide.ts).
 */
export { approve, decide, deny, type DecideResult, type Decision } from './csr-decide.js';
export { makeCsrPem, parseCsrRequest, type CsrRequestSpec, type ParsedRequest } from './csr-request.js';
export {
  csrCondition,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  nodeAddressesOf,
  summarizeCsr,
  withWarnings,
  type CsrCondition,
  type CsrSummary,
} from './csr-summary.js';
export { listCsrs, listCsrsWithWarnings, servingNodeAddresses, watchCsrs, type CsrWatchHandlers } from './csr-watch.js';

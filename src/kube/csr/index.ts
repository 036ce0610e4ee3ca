/**
 * CertificateSigningRequests (certificates.k8s.io/v1), the kind's module: summaries and their
 * warnings (summary.ts, pure), the PKCS#10 request inside (request.ts), reading them once
 * or live (watch.ts), and approving or denying through the approval subresource (decide.ts).
 */
export { approve, decide, deny, type DecideResult, type Decision } from './decide.js';
export { makeCsrPem, parseCsrRequest, type CsrRequestSpec, type ParsedRequest } from './request.js';
export {
  csrCondition,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  nodeAddressesOf,
  summarizeCsr,
  withWarnings,
  type CsrCondition,
  type CsrSummary,
} from './summary.js';
export { listCsrs, listCsrsWithWarnings, servingNodeAddresses, watchCsrs, type CsrWatchHandlers } from './watch.js';

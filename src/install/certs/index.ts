/**
 * The install's certificate set: the three CAs, every leaf certificate and key of the install's
 * Secret table, the service-account key pair, the Secrets holding them and the kubeconfigs
 * built from them.
 *
 * Re-running the install keeps what the cluster already has: CAs and key pairs read back from
 * the Secrets are reused, leaves are re-issued only when they no longer fit (missing, signed by
 * another CA, a SAN missing, expiring), and every decision is returned with its reason.
 * Private keys are never part of an error message, a report line or a summary.
 *
 * specs: which certificates (pure); reuse: whether existing ones can be kept (pure); generate:
 * the keys and certificates; secrets: the Secret manifests and back; kubeconfigs: built from them.
 */
export * from './types.js';
export {
  CERT_SECRET_LABELS,
  CERT_SECRET_NAMES,
  DEFAULT_CERT_VALIDITY_DAYS,
  apiserverHosts,
  apiserverUrl,
  certSetCounts,
  etcdMemberHosts,
  inClusterApiserverUrl,
} from './specs.js';
export { servingCertCovers } from './reuse.js';
export { generateCertSet } from './generate.js';
export { certSecrets, certSetFromSecrets } from './secrets.js';
export { adminKubeconfig, initKubeconfig } from './kubeconfigs.js';
export { certFingerprints, describeCertSet, type CaFingerprints, type CertInfo } from './describe.js';

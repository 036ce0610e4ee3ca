/** Printable facts of a certificate set: fingerprints and subjects, never key material. */
import { parseCert } from './reuse.js';
import type { CertSet, PartialCertSet } from './types.js';

/** SHA-256 fingerprints (`AB:CD:…`, of the DER certificate) of the three CAs. */
export interface CaFingerprints {
  clusterCA: string;
  etcdCA: string;
  frontProxyCA: string;
}

/**
 * SHA-256 fingerprints of the CA certificates: equal fingerprints after a re-run prove the same
 * CAs were kept. Safe to print (public data only). For a partial set, CAs that are missing or do
 * not parse are left out.
 */
export function certFingerprints(set: CertSet): CaFingerprints;
export function certFingerprints(set: PartialCertSet): Partial<CaFingerprints>;
export function certFingerprints(set: PartialCertSet): Partial<CaFingerprints> {
  const out: Partial<CaFingerprints> = {};
  for (const f of ['clusterCA', 'etcdCA', 'frontProxyCA'] as const) {
    const fp = parseCert(set[f]?.certPem)?.fingerprint256;
    if (fp) out[f] = fp;
  }
  return out;
}

/** One certificate of the set, public facts only (no key material): safe to print or log. */
export interface CertInfo {
  id: string;
  /** `CN=…, O=…` */
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  /** `DNS:…` / `IP Address:…` entries. */
  sans: string[];
  isCA: boolean;
  sha256: string;
}

function certificatesOf(set: CertSet): [string, string][] {
  return [
    ['cluster-ca', set.clusterCA.certPem],
    ['etcd-ca', set.etcdCA.certPem],
    ['front-proxy-ca', set.frontProxyCA.certPem],
    ['apiserver', set.apiserver.certPem],
    ['apiserver-etcd-client', set.apiserverEtcdClient.certPem],
    ['front-proxy-client', set.frontProxyClient.certPem],
    ...set.etcd.flatMap((m, i): [string, string][] => [
      [`etcd-${i}-server`, m.server.certPem],
      [`etcd-${i}-peer`, m.peer.certPem],
    ]),
    ['controller-manager', set.controllerManager.certPem],
    ['scheduler', set.scheduler.certPem],
    ['admin', set.admin.certPem],
    ['agent-bootstrap', set.agentBootstrap.certPem],
  ];
}

/**
 * A printable summary of every certificate in the set (CAs first, then leaves in a fixed order):
 * subjects, issuers, validity, SANs and fingerprints. Private keys are never included.
 */
export function describeCertSet(set: CertSet): CertInfo[] {
  const out: CertInfo[] = [];
  for (const [id, pem] of certificatesOf(set)) {
    const x = parseCert(pem);
    if (!x) continue;
    out.push({
      id,
      subject: x.subject.split('\n').filter(Boolean).join(', '),
      issuer: x.issuer.split('\n').filter(Boolean).join(', '),
      notBefore: x.validFromDate.toISOString(),
      notAfter: x.validToDate.toISOString(),
      sans: x.subjectAltName ? x.subjectAltName.split(', ') : [],
      isCA: x.ca,
      sha256: x.fingerprint256,
    });
  }
  return out;
}

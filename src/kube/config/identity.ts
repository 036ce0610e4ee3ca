/**
 * Which cluster a context points at, as its kubeconfig says: the API server's URL and the
 * SHA-256 fingerprints of the CA certificates it trusts (none when it skips verification or
 * trusts the system's CAs). Two contexts with the same name in two kubeconfigs are the same
 * cluster only when both agree.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';

export interface ClusterIdentity {
  server: string;
  /** SHA-256 fingerprints (`AB:CD:…`) of the CA certificates the context trusts. */
  ca: string[];
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The fingerprints of the certificates in a PEM bundle (unreadable ones left out). */
export function caFingerprints(pem: string): string[] {
  const out: string[] = [];
  for (const block of pem.match(PEM) ?? []) {
    try {
      out.push(new X509Certificate(block).fingerprint256);
    } catch {
      // Not a certificate this Node can read: it cannot tell clusters apart either.
    }
  }
  return out;
}

/** The identity of `context`'s cluster in `kc`, or undefined when the kubeconfig has no such context or cluster. */
export function identityOf(kc: KubeConfig, context: string): ClusterIdentity | undefined {
  const ctx = kc.getContextObject(context);
  const cluster = ctx ? kc.getCluster(ctx.cluster) : null;
  if (!cluster) return undefined;
  let pem = '';
  if (cluster.caData) pem = Buffer.from(cluster.caData, 'base64').toString('utf8');
  else if (cluster.caFile) {
    try {
      pem = fs.readFileSync(cluster.caFile, 'utf8');
    } catch {
      pem = '';
    }
  }
  return { server: cluster.server, ca: caFingerprints(pem) };
}

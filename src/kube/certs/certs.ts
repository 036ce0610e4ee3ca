import { X509Certificate } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Data keys that hold certificates: `*.crt` (tls.crt and ca.crt included). */
export function isCertKey(key: string): boolean {
  return key.endsWith('.crt');
}

/** "CN=apiserver, O=system:masters" from X509Certificate.subject (one attribute per line). */
function oneLine(subject: string): string {
  return subject
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(', ');
}

/**
 * The certificates in one PEM text (a bundle may hold several), reduced to subject and expiry.
 * Blocks that do not parse are skipped.
 */
export function certsFromPem(pem: string): { subject: string; notAfter: number }[] {
  const out: { subject: string; notAfter: number }[] = [];
  for (const block of pem.match(PEM_BLOCK) ?? []) {
    try {
      const cert = new X509Certificate(block);
      const notAfter = cert.validToDate?.getTime() ?? Date.parse(cert.validTo);
      if (Number.isFinite(notAfter)) out.push({ subject: oneLine(cert.subject), notAfter });
    } catch {
      // not a certificate after all: nothing to report
    }
  }
  return out;
}

/** A certificate's public facts (never key material): safe to print. */
export interface CertDetail {
  /** `CN=…, O=…` */
  subject: string;
  issuer: string;
  /** `DNS:…` / `IP Address:…` entries (empty for client certificates). */
  sans: string[];
  /** Hex, upper case. */
  serial: string;
  /** Epoch ms. */
  notBefore: number;
  /** Epoch ms. */
  notAfter: number;
  isCA: boolean;
}

/** Every certificate of a PEM text with subject, issuer, SANs, serial and validity; blocks that do not parse are skipped. */
export function certDetailsFromPem(pem: string): CertDetail[] {
  const out: CertDetail[] = [];
  for (const block of pem.match(PEM_BLOCK) ?? []) {
    try {
      const cert = new X509Certificate(block);
      const notAfter = cert.validToDate?.getTime() ?? Date.parse(cert.validTo);
      const notBefore = cert.validFromDate?.getTime() ?? Date.parse(cert.validFrom);
      if (!Number.isFinite(notAfter)) continue;
      out.push({
        subject: oneLine(cert.subject),
        issuer: oneLine(cert.issuer),
        sans: (cert.subjectAltName ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        serial: cert.serialNumber.toUpperCase(),
        notBefore,
        notAfter,
        isCA: cert.ca,
      });
    } catch {
      // not a certificate after all: nothing to report
    }
  }
  return out;
}

export const SERVICE_ACCOUNT_TOKEN = 'kubernetes.io/service-account-token';

/**
 * Certificates found in a Secret (none in a service account's token Secret): for every `*.crt` data key, each certificate's subject and
 * expiry. Only these are returned; the data itself is dropped here and never kept or logged.
 */
export function certsFromSecret(secret: Pick<V1Secret, 'metadata' | 'data' | 'type'>): CertSummary[] {
  // A service account's token Secret carries the cluster's CA: the cluster's, not the fleet's.
  if (secret.type === SERVICE_ACCOUNT_TOKEN) return [];
  const name = secret.metadata?.name ?? '';
  const out: CertSummary[] = [];
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    if (!isCertKey(key) || typeof value !== 'string') continue;
    let text: string;
    try {
      text = Buffer.from(value, 'base64').toString('utf8');
    } catch {
      continue;
    }
    for (const c of certsFromPem(text)) out.push({ secret: name, key, subject: c.subject, notAfter: c.notAfter });
  }
  return out.sort((a, b) => a.key.localeCompare(b.key) || a.notAfter - b.notAfter);
}

/** A certificate found in a Secret of the fleet namespace (the data itself is never kept). */
export interface CertSummary {
  secret: string;
  key: string;
  subject: string;
  /** Epoch ms. */
  notAfter: number;
}

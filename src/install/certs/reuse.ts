/**
 * Whether what the cluster already has can be kept (pure decisions): a CA and its key, a leaf
 * certificate against its CA, subject, usage, SANs and expiry, the service-account key pair.
 * Every decision carries its reason; private keys never appear in one.
 */
import { X509Certificate, createPublicKey } from 'node:crypto';
import net from 'node:net';
import {
  type Authority,
  type CertRequest,
  type KeyMaterial,
  authorityFromPem,
  isRsaPrivateKey,
  keyMatchesCertificate,
  publicKeyPemOf,
} from '../../kube/certs/pki.js';
import type { CaSpec, LeafSpec } from './specs.js';
import { type ApiserverAddress, type CertAction, CertReuseError, type KeyPairPem } from './types.js';

const OID_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const OID_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const DAY_MS = 86_400_000;

export function parseCert(pem: string | undefined): X509Certificate | undefined {
  if (!pem) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** Whether `x` is close enough to expiry to renew: less than min(30 days, a fifth of its lifetime) left. */
function expiringSoon(x: X509Certificate, now = Date.now()): boolean {
  const from = x.validFromDate.getTime();
  const to = x.validToDate.getTime();
  return to - now < Math.min(30 * DAY_MS, (to - from) / 5);
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * Whether the serving certificate's SANs cover the address (every part given: the IP through
 * `checkIP`, the hostname through `checkHost` without falling back to the subject CN). False for
 * an empty address or a certificate that does not parse.
 */
export function servingCertCovers(certPem: string, address: ApiserverAddress): boolean {
  const x = parseCert(certPem);
  if (!x) return false;
  const ip = address.ip?.trim();
  const hostname = address.hostname?.trim().toLowerCase().replace(/\.$/, '');
  if (!ip && !hostname) return false;
  return (!ip || coversHost(x, ip)) && (!hostname || coversHost(x, hostname));
}

function coversHost(x: X509Certificate, host: string): boolean {
  return net.isIP(host) ? x.checkIP(host) !== undefined : x.checkHost(host, { subject: 'never' }) !== undefined;
}

/** Subject as `CN` and sorted `O` values (X509Certificate.subject has one `K=V` per line). */
function subjectOf(x: X509Certificate): { cn: string | undefined; orgs: string[] } {
  const lines = x.subject.split('\n').map((l) => l.trim());
  return {
    cn: lines.find((l) => l.startsWith('CN='))?.slice(3),
    orgs: lines
      .filter((l) => l.startsWith('O='))
      .map((l) => l.slice(2))
      .sort(),
  };
}

function expectedEku(usage: CertRequest['usage']): string[] {
  return [...(usage !== 'client' ? [OID_SERVER_AUTH] : []), ...(usage !== 'server' ? [OID_CLIENT_AUTH] : [])];
}

/** Why the existing leaf cannot be kept, or undefined when it can. */
export function leafProblem(x: X509Certificate, ca: X509Certificate, spec: LeafSpec, keyPem: string, caLabel: string): string | undefined {
  if (!keyMatchesCertificate(x.toString(), keyPem)) return 'the certificate does not belong to its private key';
  if (!x.checkIssued(ca) || !x.verify(ca.publicKey)) return `not signed by the current ${caLabel}`;
  if (x.ca) return 'the certificate is a CA';
  const s = subjectOf(x);
  const wantOrgs = [...(spec.req.organizations ?? [])].sort();
  if (s.cn !== spec.req.commonName || s.orgs.join(',') !== wantOrgs.join(',')) {
    const want = [...wantOrgs.map((o) => `O=${o}`), `CN=${spec.req.commonName}`].join(', ');
    return `subject is ${x.subject.replace(/\n/g, ', ')}, expected ${want}`;
  }
  const eku = [...(x.keyUsage ?? [])].sort();
  if (eku.join(',') !== expectedEku(spec.req.usage).sort().join(',')) return `extended key usage differs from ${spec.req.usage}`;
  const missing = (spec.req.hosts ?? []).filter((h) => !coversHost(x, h));
  if (missing.length) return `does not cover ${missing.join(', ')}`;
  const now = Date.now();
  if (x.validFromDate.getTime() > now + 5 * 60_000) return `not valid before ${x.validFrom}`;
  if (x.validToDate.getTime() <= now) return `expired on ${isoDay(x.validToDate)}`;
  if (expiringSoon(x, now)) return `expires on ${isoDay(x.validToDate)}`;
  return undefined;
}

export type CaPlan =
  | { kind: 'reuse'; authority: Authority; reason: string }
  | { kind: 'renew'; keyPem: string; subjectOf?: string; reason: string }
  | { kind: 'create'; reason: string };

/** What to do with one CA; throws {@link CertReuseError} when it exists but cannot be reused. */
export function planCa(spec: CaSpec, found: Partial<KeyMaterial> | undefined, rotate: boolean): CaPlan {
  if (rotate) return { kind: 'create', reason: 'rotation requested' };
  const { certPem, keyPem } = found ?? {};
  const hint = `restore the ${spec.location.split(':')[0]} Secret, or rotate every certificate on purpose`;
  if (!certPem && !keyPem) return { kind: 'create', reason: 'none found' };
  if (!keyPem) throw new CertReuseError(`the ${spec.description} certificate exists but its private key is missing: ${hint}`);
  if (!isRsaPrivateKey(keyPem, 2048))
    throw new CertReuseError(`the ${spec.description} private key is not a readable RSA key of at least 2048 bits: ${hint}`);
  if (!certPem) return { kind: 'renew', keyPem, reason: 'certificate missing; new certificate for the existing key' };
  const x = parseCert(certPem);
  if (!x) return { kind: 'renew', keyPem, reason: 'certificate unreadable; new certificate for the existing key' };
  if (!keyMatchesCertificate(certPem, keyPem))
    throw new CertReuseError(`the ${spec.description} private key does not belong to its certificate: ${hint}`);
  if (!x.ca) throw new CertReuseError(`the ${spec.description} certificate is not a CA certificate: ${hint}`);
  if (x.validToDate.getTime() <= Date.now()) {
    return {
      kind: 'renew',
      keyPem,
      subjectOf: certPem,
      reason: `expired on ${isoDay(x.validToDate)}; renewed with the same key and subject`,
    };
  }
  if (expiringSoon(x)) {
    return {
      kind: 'renew',
      keyPem,
      subjectOf: certPem,
      reason: `expires on ${isoDay(x.validToDate)}; renewed with the same key and subject`,
    };
  }
  return { kind: 'reuse', authority: authorityFromPem(certPem, keyPem), reason: 'present and valid' };
}

/** The action a CA plan reports. */
export function caAction(plan: CaPlan): CertAction['action'] {
  return plan.kind === 'reuse' ? 'reused' : plan.kind === 'renew' ? 'reissued' : 'created';
}

function samePublicKey(a: string, b: string): boolean {
  try {
    const der = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return der(a).equals(der(b));
  } catch {
    return false;
  }
}

export type Decision = Pick<CertAction, 'action' | 'reason'>;

/** The service-account pair: kept (public half derived again when it does not match), or to be created. */
export function planServiceAccount(sa: Partial<KeyPairPem> | undefined, rotate: boolean): { keep?: KeyPairPem; decision: Decision } {
  if (!rotate && sa?.privateKeyPem && isRsaPrivateKey(sa.privateKeyPem)) {
    const pub = publicKeyPemOf(sa.privateKeyPem);
    const samePub = !!sa.publicKeyPem && samePublicKey(sa.publicKeyPem, pub);
    const keep = { privateKeyPem: sa.privateKeyPem, publicKeyPem: samePub ? sa.publicKeyPem! : pub };
    const decision: Decision = samePub
      ? { action: 'reused', reason: 'present' }
      : {
          action: 'reissued',
          reason: sa.publicKeyPem
            ? 'public key did not match the private key; derived again'
            : 'public key missing; derived from the private key',
        };
    return { keep, decision };
  }
  const reason = rotate
    ? 'rotation requested'
    : sa?.privateKeyPem
      ? 'private key unreadable or not RSA 2048; service-account tokens signed before are no longer accepted'
      : sa?.publicKeyPem
        ? 'private key missing; service-account tokens signed before are no longer accepted'
        : 'none found';
  return { decision: { action: 'created', reason } };
}

/** Why a leaf gets a new key (its key is missing or unusable). */
export function newKeyReason(have: Partial<KeyMaterial>, rotate: boolean): string {
  if (rotate) return 'rotation requested';
  if (have.keyPem) return 'private key unreadable or not RSA 2048';
  return have.certPem ? 'private key missing' : 'none found';
}

/** Why a leaf whose key is kept needs a new certificate, or undefined when it can be kept. */
export function leafCertProblem(
  have: Partial<KeyMaterial>,
  caPem: string,
  spec: LeafSpec,
  keyPem: string,
  caLabel: string,
): string | undefined {
  if (!have.certPem) return 'certificate missing';
  const x = parseCert(have.certPem);
  if (!x) return 'certificate unreadable';
  return leafProblem(x, new X509Certificate(caPem), spec, keyPem, caLabel);
}

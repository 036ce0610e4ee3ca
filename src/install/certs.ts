/**
 * The install's certificate set: the three CAs, every leaf certificate and key of the install's
 * Secret table, the service-account key pair, the Secrets holding them and the kubeconfigs
 * built from them.
 *
 * Re-running the install keeps what the cluster already has: CAs and key pairs read back from
 * the Secrets are reused, leaves are re-issued only when they no longer fit (missing, signed by
 * another CA, a SAN missing, expiring), and every decision is returned with its reason.
 * Private keys are never part of an error message, a report line or a summary.
 */
import { X509Certificate, createPublicKey } from 'node:crypto';
import net from 'node:net';
import type { V1Secret } from '@kubernetes/client-node';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { UserError } from '../errors.js';
import {
  type Authority,
  type CertRequest,
  type KeyMaterial,
  type KeyPairPem,
  authorityFromPem,
  createAuthority,
  generateKeyPem,
  isRsaPrivateKey,
  issueCertificate,
  keyMatchesCertificate,
  publicKeyPemOf,
} from '../kube/pki.js';

export type { KeyMaterial, KeyPairPem } from '../kube/pki.js';

/** Default certificate validity: 10 years. */
export const DEFAULT_CERT_VALIDITY_DAYS = 3650;

/** Labels on every Secret of the set (the labels on everything the install creates). */
export const CERT_SECRET_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'app.kubernetes.io/managed-by': 'fleetdeck',
  'app.kubernetes.io/part-of': 'nova',
});

/** Names of the Secrets of the set, in the order {@link certSecrets} returns them. */
export const CERT_SECRET_NAMES = [
  'nova-ca',
  'nova-etcd-ca',
  'nova-front-proxy-ca',
  'nova-apiserver-certs',
  'nova-etcd-certs',
  'nova-controller-manager',
  'nova-scheduler',
  'nova-admin',
  'nova-agent-bootstrap',
] as const;

/** The address the API server's LoadBalancer Service was actually assigned (ip, hostname or both). */
export interface ApiserverAddress {
  ip?: string;
  hostname?: string;
}

export interface CertSetOptions {
  /** Hosting namespace (NS): goes into the Service and etcd member DNS names. */
  namespace: string;
  /** The LoadBalancer address assigned to the `apiserver` Service; at least one of ip / hostname. */
  apiserverAddress: ApiserverAddress;
  /** Number of etcd members (1 or 3): members `etcd-0` … `etcd-<n-1>`. */
  etcdMembers: number;
  /** Validity of new certificates in days (default 3650). Leaves never outlive their CA. */
  validityDays?: number;
  /** Regenerate every CA, key and certificate on purpose, ignoring what exists. */
  rotate?: boolean;
}

/** Server and peer certificates of one etcd member. */
export interface EtcdMemberCerts {
  server: KeyMaterial;
  peer: KeyMaterial;
}

/** Every certificate and key of the install. Key fields hold private keys: never print them. */
export interface CertSet {
  namespace: string;
  apiserverAddress: ApiserverAddress;
  /** Cluster CA (`nova-ca`). */
  clusterCA: KeyMaterial;
  /** etcd CA (`nova-etcd-ca`). */
  etcdCA: KeyMaterial;
  /** Front-proxy CA (`nova-front-proxy-ca`). */
  frontProxyCA: KeyMaterial;
  /** API server serving certificate (CN `kube-apiserver`). */
  apiserver: KeyMaterial;
  /** API server's client certificate towards etcd (CN `kube-apiserver-etcd-client`, etcd CA). */
  apiserverEtcdClient: KeyMaterial;
  /** Front-proxy client (CN `front-proxy-client`, front-proxy CA). */
  frontProxyClient: KeyMaterial;
  /** One entry per etcd member, index = member ordinal. */
  etcd: EtcdMemberCerts[];
  /** Client CN `system:kube-controller-manager`. */
  controllerManager: KeyMaterial;
  /** Client CN `system:kube-scheduler`. */
  scheduler: KeyMaterial;
  /** Client CN `nova-admin`, O `system:masters`. */
  admin: KeyMaterial;
  /** Client CN `nova-agent-bootstrap`, O `nova:agents`. */
  agentBootstrap: KeyMaterial;
  /** Service-account token signing key pair. */
  serviceAccount: KeyPairPem;
}

/**
 * What was found in the cluster: any part may be missing. A complete {@link CertSet} is also a
 * valid `PartialCertSet`.
 */
export interface PartialCertSet {
  clusterCA?: Partial<KeyMaterial>;
  etcdCA?: Partial<KeyMaterial>;
  frontProxyCA?: Partial<KeyMaterial>;
  apiserver?: Partial<KeyMaterial>;
  apiserverEtcdClient?: Partial<KeyMaterial>;
  frontProxyClient?: Partial<KeyMaterial>;
  etcd?: ({ server?: Partial<KeyMaterial>; peer?: Partial<KeyMaterial> } | undefined)[];
  controllerManager?: Partial<KeyMaterial>;
  scheduler?: Partial<KeyMaterial>;
  admin?: Partial<KeyMaterial>;
  agentBootstrap?: Partial<KeyMaterial>;
  serviceAccount?: Partial<KeyPairPem>;
}

/** One decision of {@link generateCertSet}. Never contains key material. */
export interface CertAction {
  /** Stable id: `cluster-ca`, `apiserver`, `etcd-1-peer`, `service-account-key`, … */
  id: string;
  /** What it is, for people. */
  description: string;
  /** The Secret (and data keys) it is stored in. */
  location: string;
  /**
   * `reused`: kept as found; `created`: new key and certificate; `reissued`: new certificate for
   * the key found (or, for the service-account pair, public half derived again).
   */
  action: 'reused' | 'created' | 'reissued';
  reason: string;
}

export interface CertSetResult {
  set: CertSet;
  /** One entry per CA, leaf and key pair, in a fixed order. */
  actions: CertAction[];
}

/**
 * A CA (or the service-account key) exists in the cluster but cannot be reused (its private key
 * is missing or does not belong to it). Regenerating it would invalidate every certificate and
 * kubeconfig issued before, so that only happens with `rotate`.
 */
export class CertReuseError extends UserError {}

type CaField = 'clusterCA' | 'etcdCA' | 'frontProxyCA';
type LeafField = 'apiserver' | 'apiserverEtcdClient' | 'frontProxyClient' | 'controllerManager' | 'scheduler' | 'admin' | 'agentBootstrap';

interface CaSpec {
  field: CaField;
  id: string;
  description: string;
  location: string;
  commonName: string;
}

const CA_SPECS: readonly CaSpec[] = [
  { field: 'clusterCA', id: 'cluster-ca', description: 'cluster CA', location: 'nova-ca: ca.crt, ca.key', commonName: 'nova-ca' },
  { field: 'etcdCA', id: 'etcd-ca', description: 'etcd CA', location: 'nova-etcd-ca: ca.crt, ca.key', commonName: 'nova-etcd-ca' },
  {
    field: 'frontProxyCA',
    id: 'front-proxy-ca',
    description: 'front-proxy CA',
    location: 'nova-front-proxy-ca: ca.crt, ca.key',
    commonName: 'nova-front-proxy-ca',
  },
];

type LeafPlace = { field: LeafField } | { member: number; role: 'server' | 'peer' };

interface LeafSpec {
  id: string;
  description: string;
  location: string;
  ca: CaField;
  place: LeafPlace;
  req: Omit<CertRequest, 'days' | 'keyPem'>;
}

const OID_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const OID_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const DAY_MS = 86_400_000;

/** The SANs of the API server serving certificate for `namespace` and `address` (in a fixed order). */
export function apiserverHosts(namespace: string, address: ApiserverAddress): string[] {
  const a = normalizeAddress(address);
  return unique([
    ...(a.ip ? [a.ip] : []),
    ...(a.hostname ? [a.hostname] : []),
    'apiserver',
    `apiserver.${namespace}`,
    `apiserver.${namespace}.svc`,
    `apiserver.${namespace}.svc.cluster.local`,
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
    'kubernetes.default.svc.cluster.local',
    'localhost',
    '127.0.0.1',
    '10.96.0.1',
  ]);
}

/** The SANs of etcd member `i`'s server and peer certificates in `namespace`. */
export function etcdMemberHosts(namespace: string, i: number): string[] {
  return [
    `etcd-${i}.etcd.${namespace}.svc`,
    `etcd-${i}.etcd.${namespace}.svc.cluster.local`,
    `etcd-${i}`,
    `etcd.${namespace}.svc`,
    `etcd.${namespace}.svc.cluster.local`,
    'localhost',
    '127.0.0.1',
  ];
}

function leafSpecs(namespace: string, address: ApiserverAddress, members: number): LeafSpec[] {
  const specs: LeafSpec[] = [
    {
      id: 'apiserver',
      description: 'API server serving certificate',
      location: 'nova-apiserver-certs: apiserver.crt, apiserver.key',
      ca: 'clusterCA',
      place: { field: 'apiserver' },
      req: { commonName: 'kube-apiserver', hosts: apiserverHosts(namespace, address), usage: 'server' },
    },
    {
      id: 'apiserver-etcd-client',
      description: 'API server etcd client certificate',
      location: 'nova-apiserver-certs: apiserver-etcd-client.crt, apiserver-etcd-client.key',
      ca: 'etcdCA',
      place: { field: 'apiserverEtcdClient' },
      req: { commonName: 'kube-apiserver-etcd-client', usage: 'client' },
    },
    {
      id: 'front-proxy-client',
      description: 'front-proxy client certificate',
      location: 'nova-apiserver-certs: front-proxy-client.crt, front-proxy-client.key',
      ca: 'frontProxyCA',
      place: { field: 'frontProxyClient' },
      req: { commonName: 'front-proxy-client', usage: 'client' },
    },
  ];
  for (let i = 0; i < members; i++) {
    for (const role of ['server', 'peer'] as const) {
      specs.push({
        id: `etcd-${i}-${role}`,
        description: `etcd member ${i} ${role} certificate`,
        location: `nova-etcd-certs: etcd-${i}-${role}.crt, etcd-${i}-${role}.key`,
        ca: 'etcdCA',
        place: { member: i, role },
        req: { commonName: `etcd-${i}`, hosts: etcdMemberHosts(namespace, i), usage: 'server+client' },
      });
    }
  }
  specs.push(
    {
      id: 'controller-manager',
      description: 'controller-manager client certificate',
      location: 'nova-controller-manager: kubeconfig',
      ca: 'clusterCA',
      place: { field: 'controllerManager' },
      req: { commonName: 'system:kube-controller-manager', usage: 'client' },
    },
    {
      id: 'scheduler',
      description: 'scheduler client certificate',
      location: 'nova-scheduler: kubeconfig',
      ca: 'clusterCA',
      place: { field: 'scheduler' },
      req: { commonName: 'system:kube-scheduler', usage: 'client' },
    },
    {
      id: 'admin',
      description: 'admin client certificate',
      location: 'nova-admin: tls.crt, tls.key',
      ca: 'clusterCA',
      place: { field: 'admin' },
      req: { commonName: 'nova-admin', organizations: ['system:masters'], usage: 'client' },
    },
    {
      id: 'agent-bootstrap',
      description: 'agent bootstrap client certificate',
      location: 'nova-agent-bootstrap: tls.crt, tls.key',
      ca: 'clusterCA',
      place: { field: 'agentBootstrap' },
      req: { commonName: 'nova-agent-bootstrap', organizations: ['nova:agents'], usage: 'client' },
    },
  );
  return specs;
}

function pickLeaf(p: PartialCertSet, place: LeafPlace): Partial<KeyMaterial> | undefined {
  return 'field' in place ? p[place.field] : p.etcd?.[place.member]?.[place.role];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;

/**
 * The address with surrounding blanks removed and the hostname lower-cased; a hostname that is
 * an IP literal counts as the IP. Throws when neither is usable.
 */
function normalizeAddress(address: ApiserverAddress): ApiserverAddress {
  let ip = address.ip?.trim() || undefined;
  let hostname = address.hostname?.trim().toLowerCase().replace(/\.$/, '') || undefined;
  if (hostname && net.isIP(hostname)) {
    if (!ip) ip = hostname;
    hostname = hostname === ip ? undefined : hostname;
  }
  if (ip && !net.isIP(ip)) throw new UserError(`the API server address "${ip}" is not an IP address`);
  if (hostname && (net.isIP(hostname) || !DNS_NAME.test(hostname))) {
    throw new UserError(`the API server hostname "${hostname}" is not a valid DNS name`);
  }
  if (!ip && !hostname) throw new UserError('the API server LoadBalancer address is needed (an IP or a hostname) to issue its serving certificate');
  return { ...(ip ? { ip } : {}), ...(hostname ? { hostname } : {}) };
}

/**
 * `https://<address>:443`: the API server's URL through its LoadBalancer (the IP when both are
 * known, IPv6 in brackets).
 */
export function apiserverUrl(address: ApiserverAddress): string {
  const a = normalizeAddress(address);
  const host = a.ip ? (net.isIPv6(a.ip) ? `[${a.ip}]` : a.ip) : a.hostname!;
  return `https://${host}:443`;
}

/** The API server's URL inside the hosting cluster, as the controller-manager and scheduler use it. */
export function inClusterApiserverUrl(namespace: string): string {
  return `https://apiserver.${namespace}.svc:443`;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function parseCert(pem: string | undefined): X509Certificate | undefined {
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
function leafProblem(x: X509Certificate, ca: X509Certificate, spec: LeafSpec, keyPem: string, caLabel: string): string | undefined {
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

type CaPlan =
  | { kind: 'reuse'; authority: Authority; reason: string }
  | { kind: 'renew'; keyPem: string; subjectOf?: string; reason: string }
  | { kind: 'create'; reason: string };

/** What to do with one CA; throws {@link CertReuseError} when it exists but cannot be reused. */
function planCa(spec: CaSpec, found: Partial<KeyMaterial> | undefined, rotate: boolean): CaPlan {
  if (rotate) return { kind: 'create', reason: 'rotation requested' };
  const { certPem, keyPem } = found ?? {};
  const hint = `restore the ${spec.location.split(':')[0]} Secret, or rotate every certificate on purpose`;
  if (!certPem && !keyPem) return { kind: 'create', reason: 'none found' };
  if (!keyPem) throw new CertReuseError(`the ${spec.description} certificate exists but its private key is missing: ${hint}`);
  if (!isRsaPrivateKey(keyPem, 2048)) throw new CertReuseError(`the ${spec.description} private key is not a readable RSA key of at least 2048 bits: ${hint}`);
  if (!certPem) return { kind: 'renew', keyPem, reason: 'certificate missing; new certificate for the existing key' };
  const x = parseCert(certPem);
  if (!x) return { kind: 'renew', keyPem, reason: 'certificate unreadable; new certificate for the existing key' };
  if (!keyMatchesCertificate(certPem, keyPem)) throw new CertReuseError(`the ${spec.description} private key does not belong to its certificate: ${hint}`);
  if (!x.ca) throw new CertReuseError(`the ${spec.description} certificate is not a CA certificate: ${hint}`);
  if (x.validToDate.getTime() <= Date.now()) {
    return { kind: 'renew', keyPem, subjectOf: certPem, reason: `expired on ${isoDay(x.validToDate)}; renewed with the same key and subject` };
  }
  if (expiringSoon(x)) {
    return { kind: 'renew', keyPem, subjectOf: certPem, reason: `expires on ${isoDay(x.validToDate)}; renewed with the same key and subject` };
  }
  return { kind: 'reuse', authority: authorityFromPem(certPem, keyPem), reason: 'present and valid' };
}

async function runCaPlan(spec: CaSpec, plan: CaPlan, days: number): Promise<Authority> {
  if (plan.kind === 'reuse') return plan.authority;
  if (plan.kind === 'create') return createAuthority(spec.commonName, days);
  return createAuthority(spec.commonName, days, { keyPem: plan.keyPem, ...(plan.subjectOf ? { sameSubjectAs: plan.subjectOf } : {}) });
}

/**
 * Generates the install's certificate set (every CA, certificate and key of the install's Secret
 * table) for `opts`, reusing what `existing` (read back with {@link certSetFromSecrets}) holds:
 *
 * - CAs and key pairs found are reused. A CA whose certificate is missing or expiring gets a new
 *   certificate for the same key and subject (certificates it signed stay valid). A CA that
 *   exists without a usable private key throws {@link CertReuseError} instead of being
 *   replaced; `rotate: true` replaces everything on purpose.
 * - A leaf certificate is re-issued (for the key found, when there is one) only when it is
 *   missing, unreadable, not its key's, not signed by the current CA, has another subject or
 *   usage, lacks a SAN (e.g. the serving certificate does not cover the assigned LoadBalancer
 *   address) or is expired or about to expire.
 *
 * New keys are RSA 2048 from Node's native asynchronous generator, all started at once; the
 * signatures are made with Node's crypto too, so the event loop is never held for long.
 *
 * @returns the set and one {@link CertAction} per item saying whether it was reused, created or
 *   re-issued, and why.
 * @throws UserError for a bad namespace, address, member count or validity; CertReuseError as above.
 */
export async function generateCertSet(opts: CertSetOptions, existing?: PartialCertSet): Promise<CertSetResult> {
  const namespace = opts.namespace;
  if (!DNS_LABEL.test(namespace)) throw new UserError(`namespace "${namespace}" is not a valid DNS label`);
  const address = normalizeAddress(opts.apiserverAddress);
  const members = opts.etcdMembers;
  if (!Number.isInteger(members) || members < 1 || members > 9) throw new UserError(`the number of etcd members must be a whole number from 1 to 9 (1, or 3 for HA), not ${members}`);
  const days = opts.validityDays ?? DEFAULT_CERT_VALIDITY_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new UserError(`certificate validity must be a whole number of days ≥ 1, not ${days}`);
  const rotate = opts.rotate === true;
  const found: PartialCertSet = rotate ? {} : (existing ?? {});

  // CAs: decide now (throws before anything is generated), then start.
  const caPlans = CA_SPECS.map((spec) => ({ spec, plan: planCa(spec, found[spec.field], rotate) }));
  const caPromises = new Map<CaField, Promise<Authority>>();
  for (const { spec, plan } of caPlans) caPromises.set(spec.field, quiet(runCaPlan(spec, plan, days)));

  // Service-account key pair.
  let saAction: Omit<CertAction, 'id' | 'description' | 'location'>;
  let saPromise: Promise<KeyPairPem>;
  const sa = found.serviceAccount;
  if (!rotate && sa?.privateKeyPem && isRsaPrivateKey(sa.privateKeyPem)) {
    const pub = publicKeyPemOf(sa.privateKeyPem);
    const samePub = !!sa.publicKeyPem && samePublicKey(sa.publicKeyPem, pub);
    saPromise = Promise.resolve({ privateKeyPem: sa.privateKeyPem, publicKeyPem: samePub ? sa.publicKeyPem! : pub });
    saAction = samePub
      ? { action: 'reused', reason: 'present' }
      : { action: 'reissued', reason: sa.publicKeyPem ? 'public key did not match the private key; derived again' : 'public key missing; derived from the private key' };
  } else {
    saPromise = quiet(generateKeyPem());
    saAction = {
      action: 'created',
      reason: rotate
        ? 'rotation requested'
        : sa?.privateKeyPem
          ? 'private key unreadable or not RSA 2048; service-account tokens signed before are no longer accepted'
          : sa?.publicKeyPem
            ? 'private key missing; service-account tokens signed before are no longer accepted'
            : 'none found',
    };
  }

  // Leaves: keep a usable key, else start generating one now; decide about the certificate once its CA is settled.
  const specs = leafSpecs(namespace, address, members);
  const caLabel = (f: CaField) => CA_SPECS.find((c) => c.field === f)!.description;
  const leafTasks = specs.map(async (spec): Promise<{ material: KeyMaterial; action: CertAction }> => {
    const have = pickLeaf(found, spec.place) ?? {};
    const keyUsable = !!have.keyPem && isRsaPrivateKey(have.keyPem);
    const keyPromise = keyUsable ? Promise.resolve(have.keyPem!) : quiet(generateKeyPem().then((k) => k.privateKeyPem));
    const ca = await caPromises.get(spec.ca)!;
    const base = { id: spec.id, description: spec.description, location: spec.location };
    if (!keyUsable) {
      const reason = rotate
        ? 'rotation requested'
        : have.keyPem
          ? 'private key unreadable or not RSA 2048'
          : have.certPem
            ? 'private key missing'
            : 'none found';
      const material = await issueCertificate(ca, { ...spec.req, days, keyPem: await keyPromise });
      return { material, action: { ...base, action: 'created', reason } };
    }
    const keyPem = await keyPromise;
    const x = parseCert(have.certPem);
    const problem = !have.certPem
      ? 'certificate missing'
      : !x
        ? 'certificate unreadable'
        : leafProblem(x, new X509Certificate(ca.certPem), spec, keyPem, caLabel(spec.ca));
    if (!problem) return { material: { certPem: have.certPem!, keyPem }, action: { ...base, action: 'reused', reason: 'present and valid' } };
    const material = await issueCertificate(ca, { ...spec.req, days, keyPem });
    return { material, action: { ...base, action: 'reissued', reason: `${problem}; new certificate for the existing key` } };
  });

  const [cas, leaves, serviceAccount] = await Promise.all([
    Promise.all(CA_SPECS.map((s) => caPromises.get(s.field)!)),
    Promise.all(leafTasks),
    saPromise,
  ]);

  const byId = new Map(leaves.map((l, i) => [specs[i]!.id, l.material]));
  const leaf = (id: string) => byId.get(id)!;
  const material = (a: Authority): KeyMaterial => ({ certPem: a.certPem, keyPem: a.keyPem });
  const set: CertSet = {
    namespace,
    apiserverAddress: address,
    clusterCA: material(cas[0]!),
    etcdCA: material(cas[1]!),
    frontProxyCA: material(cas[2]!),
    apiserver: leaf('apiserver'),
    apiserverEtcdClient: leaf('apiserver-etcd-client'),
    frontProxyClient: leaf('front-proxy-client'),
    etcd: Array.from({ length: members }, (_, i) => ({ server: leaf(`etcd-${i}-server`), peer: leaf(`etcd-${i}-peer`) })),
    controllerManager: leaf('controller-manager'),
    scheduler: leaf('scheduler'),
    admin: leaf('admin'),
    agentBootstrap: leaf('agent-bootstrap'),
    serviceAccount,
  };
  const actions: CertAction[] = [
    ...caPlans.map(({ spec, plan }) => ({
      id: spec.id,
      description: spec.description,
      location: spec.location,
      action: plan.kind === 'reuse' ? ('reused' as const) : plan.kind === 'renew' ? ('reissued' as const) : ('created' as const),
      reason: plan.reason,
    })),
    ...leaves.map((l) => l.action),
    { id: 'service-account-key', description: 'service-account key pair', location: 'nova-apiserver-certs: sa.key, sa.pub; nova-controller-manager: sa.key', ...saAction },
  ];
  return { set, actions };
}

/** Marks a promise's rejection as handled (it still rejects for whoever awaits it). */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function samePublicKey(a: string, b: string): boolean {
  try {
    const der = (pem: string) => createPublicKey(pem).export({ type: 'spki', format: 'der' });
    return der(a).equals(der(b));
  } catch {
    return false;
  }
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface KubeconfigParts {
  clusterName: string;
  userName: string;
  contextName: string;
  server: string;
  caPem: string;
  client: KeyMaterial;
}

function kubeconfigYaml(p: KubeconfigParts): string {
  return stringifyYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: p.clusterName, cluster: { server: p.server, 'certificate-authority-data': b64(p.caPem) } }],
    users: [{ name: p.userName, user: { 'client-certificate-data': b64(p.client.certPem), 'client-key-data': b64(p.client.keyPem) } }],
    contexts: [{ name: p.contextName, context: { cluster: p.clusterName, user: p.userName } }],
    'current-context': p.contextName,
    preferences: {},
  });
}

/**
 * The agents' bootstrap kubeconfig (Secret `nova-cluster-init-kubeconfig`, key `kubeconfig`):
 * `serverUrl` (the LoadBalancer address, see {@link apiserverUrl}), the cluster CA and the
 * `nova-agent-bootstrap` client certificate and key, all embedded. Contains a private key.
 */
export function initKubeconfig(set: CertSet, serverUrl: string): string {
  return kubeconfigYaml({
    clusterName: 'nova',
    userName: 'nova-agent-bootstrap',
    contextName: 'nova',
    server: serverUrl,
    caPem: set.clusterCA.certPem,
    client: set.agentBootstrap,
  });
}

/**
 * The administrator's kubeconfig for the control plane: context, cluster `contextName` and user
 * `<contextName>-admin` with the `nova-admin` (system:masters) client certificate and key and the
 * cluster CA embedded. Contains a private key: write it with mode 0600.
 */
export function adminKubeconfig(set: CertSet, serverUrl: string, contextName = 'nova'): string {
  return kubeconfigYaml({
    clusterName: contextName,
    userName: `${contextName}-admin`,
    contextName,
    server: serverUrl,
    caPem: set.clusterCA.certPem,
    client: set.admin,
  });
}

function componentKubeconfig(set: CertSet, userName: string, client: KeyMaterial): string {
  return kubeconfigYaml({
    clusterName: 'nova',
    userName,
    contextName: 'nova',
    server: inClusterApiserverUrl(set.namespace),
    caPem: set.clusterCA.certPem,
    client,
  });
}

function secret(name: string, namespace: string, data: Record<string, string>): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels: { ...CERT_SECRET_LABELS } },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/**
 * The install's certificate Secrets for `set`, in {@link CERT_SECRET_NAMES} order: type
 * Opaque, values base64 in `data`, the fleetdeck labels, `metadata.namespace` = `namespace`.
 * The controller-manager and scheduler kubeconfigs point at `https://apiserver.<NS>.svc:443`.
 *
 * @throws Error when `namespace` is not the one the set was issued for (its SANs name it).
 */
export function certSecrets(set: CertSet, namespace: string = set.namespace): V1Secret[] {
  if (namespace !== set.namespace) {
    throw new Error(`the certificates were issued for namespace ${set.namespace}, not ${namespace}`);
  }
  const etcdData: Record<string, string> = { 'ca.crt': set.etcdCA.certPem };
  set.etcd.forEach((m, i) => {
    etcdData[`etcd-${i}-server.crt`] = m.server.certPem;
    etcdData[`etcd-${i}-server.key`] = m.server.keyPem;
    etcdData[`etcd-${i}-peer.crt`] = m.peer.certPem;
    etcdData[`etcd-${i}-peer.key`] = m.peer.keyPem;
  });
  return [
    secret('nova-ca', namespace, { 'ca.crt': set.clusterCA.certPem, 'ca.key': set.clusterCA.keyPem }),
    secret('nova-etcd-ca', namespace, { 'ca.crt': set.etcdCA.certPem, 'ca.key': set.etcdCA.keyPem }),
    secret('nova-front-proxy-ca', namespace, { 'ca.crt': set.frontProxyCA.certPem, 'ca.key': set.frontProxyCA.keyPem }),
    secret('nova-apiserver-certs', namespace, {
      'ca.crt': set.clusterCA.certPem,
      'apiserver.crt': set.apiserver.certPem,
      'apiserver.key': set.apiserver.keyPem,
      'apiserver-etcd-client.crt': set.apiserverEtcdClient.certPem,
      'apiserver-etcd-client.key': set.apiserverEtcdClient.keyPem,
      'etcd-ca.crt': set.etcdCA.certPem,
      'front-proxy-ca.crt': set.frontProxyCA.certPem,
      'front-proxy-client.crt': set.frontProxyClient.certPem,
      'front-proxy-client.key': set.frontProxyClient.keyPem,
      'sa.pub': set.serviceAccount.publicKeyPem,
      'sa.key': set.serviceAccount.privateKeyPem,
    }),
    secret('nova-etcd-certs', namespace, etcdData),
    secret('nova-controller-manager', namespace, {
      'ca.crt': set.clusterCA.certPem,
      'ca.key': set.clusterCA.keyPem,
      'sa.key': set.serviceAccount.privateKeyPem,
      kubeconfig: componentKubeconfig(set, 'system:kube-controller-manager', set.controllerManager),
    }),
    secret('nova-scheduler', namespace, { kubeconfig: componentKubeconfig(set, 'system:kube-scheduler', set.scheduler) }),
    secret('nova-admin', namespace, { 'tls.crt': set.admin.certPem, 'tls.key': set.admin.keyPem }),
    secret('nova-agent-bootstrap', namespace, { 'tls.crt': set.agentBootstrap.certPem, 'tls.key': set.agentBootstrap.keyPem }),
  ];
}

type SecretLike = Pick<V1Secret, 'metadata' | 'data' | 'stringData'>;

function decodedData(s: SecretLike | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(s?.stringData ?? {})) if (typeof v === 'string') out[k] = v;
  for (const [k, v] of Object.entries(s?.data ?? {})) if (typeof v === 'string') out[k] = Buffer.from(v, 'base64').toString('utf8');
  return out;
}

/** The client certificate and key of a kubeconfig's current user (or its only user). */
function kubeconfigClient(text: string | undefined): Partial<KeyMaterial> | undefined {
  if (!text) return undefined;
  try {
    const doc = parseYaml(text) as {
      'current-context'?: string;
      contexts?: { name?: string; context?: { user?: string } }[];
      users?: { name?: string; user?: Record<string, unknown> }[];
    } | null;
    const users = Array.isArray(doc?.users) ? doc.users : [];
    const userName = doc?.contexts?.find((c) => c?.name === doc['current-context'])?.context?.user;
    const user = (users.find((u) => u?.name === userName) ?? (users.length === 1 ? users[0] : undefined))?.user;
    const field = (k: string) => (typeof user?.[k] === 'string' ? Buffer.from(user[k] as string, 'base64').toString('utf8') : undefined);
    const certPem = field('client-certificate-data');
    const keyPem = field('client-key-data');
    return certPem || keyPem ? { ...(certPem ? { certPem } : {}), ...(keyPem ? { keyPem } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

function pair(certPem: string | undefined, keyPem: string | undefined): Partial<KeyMaterial> | undefined {
  if (!certPem && !keyPem) return undefined;
  return { ...(certPem ? { certPem } : {}), ...(keyPem ? { keyPem } : {}) };
}

/** A CA from several copies: the first key found, with the first certificate that belongs to it (else the first certificate). */
function caFrom(certs: (string | undefined)[], keys: (string | undefined)[]): Partial<KeyMaterial> | undefined {
  const keyPem = keys.find(Boolean);
  const present = certs.filter((c): c is string => !!c);
  const certPem = (keyPem ? present.find((c) => keyMatchesCertificate(c, keyPem)) : undefined) ?? present[0];
  return pair(certPem, keyPem);
}

/**
 * The certificate set as far as the given Secrets hold it (as read from the hosting cluster):
 * Secrets or data keys that are missing are left out, kubeconfigs that do not parse count as
 * missing. Values are taken from `data` (base64) and, failing that, `stringData`. Pass the result
 * to {@link generateCertSet} as `existing`.
 */
export function certSetFromSecrets(secrets: Iterable<SecretLike | undefined | null>): PartialCertSet {
  const byName = new Map<string, Record<string, string>>();
  for (const s of secrets) {
    const name = s?.metadata?.name;
    if (name && !byName.has(name)) byName.set(name, decodedData(s));
  }
  const get = (name: string) => byName.get(name) ?? {};
  const ca = get('nova-ca');
  const etcdCa = get('nova-etcd-ca');
  const fpCa = get('nova-front-proxy-ca');
  const api = get('nova-apiserver-certs');
  const etcd = get('nova-etcd-certs');
  const cm = get('nova-controller-manager');
  const sched = get('nova-scheduler');
  const admin = get('nova-admin');
  const agent = get('nova-agent-bootstrap');

  const out: PartialCertSet = {};
  const assign = <K extends keyof PartialCertSet>(k: K, v: PartialCertSet[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  assign('clusterCA', caFrom([ca['ca.crt'], cm['ca.crt'], api['ca.crt']], [ca['ca.key'], cm['ca.key']]));
  assign('etcdCA', caFrom([etcdCa['ca.crt'], etcd['ca.crt'], api['etcd-ca.crt']], [etcdCa['ca.key']]));
  assign('frontProxyCA', caFrom([fpCa['ca.crt'], api['front-proxy-ca.crt']], [fpCa['ca.key']]));
  assign('apiserver', pair(api['apiserver.crt'], api['apiserver.key']));
  assign('apiserverEtcdClient', pair(api['apiserver-etcd-client.crt'], api['apiserver-etcd-client.key']));
  assign('frontProxyClient', pair(api['front-proxy-client.crt'], api['front-proxy-client.key']));
  const members: NonNullable<PartialCertSet['etcd']> = [];
  for (const key of Object.keys(etcd)) {
    const m = /^etcd-(\d+)-(server|peer)\.(crt|key)$/.exec(key);
    if (!m) continue;
    const i = Number(m[1]);
    const role = m[2] as 'server' | 'peer';
    if (i > 99) continue;
    const member = (members[i] ??= {});
    member[role] ??= {};
    member[role][m[3] === 'crt' ? 'certPem' : 'keyPem'] = etcd[key];
  }
  if (members.length) out.etcd = members;
  assign('controllerManager', kubeconfigClient(cm['kubeconfig']));
  assign('scheduler', kubeconfigClient(sched['kubeconfig']));
  assign('admin', pair(admin['tls.crt'], admin['tls.key']));
  assign('agentBootstrap', pair(agent['tls.crt'], agent['tls.key']));
  const saKey = api['sa.key'] ?? cm['sa.key'];
  const saPub = api['sa.pub'];
  if (saKey || saPub) out.serviceAccount = { ...(saKey ? { privateKeyPem: saKey } : {}), ...(saPub ? { publicKeyPem: saPub } : {}) };
  return out;
}

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

/**
 * A printable summary of every certificate in the set (CAs first, then leaves in a fixed order):
 * subjects, issuers, validity, SANs and fingerprints. Private keys are never included.
 */
export function describeCertSet(set: CertSet): CertInfo[] {
  const items: [string, string][] = [
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
  const out: CertInfo[] = [];
  for (const [id, pem] of items) {
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

/** Number of certificates and of private keys in a set with `etcdMembers` members (CAs and the service-account pair included). */
export function certSetCounts(etcdMembers: number): { certificates: number; keys: number } {
  const certificates = 3 + 3 + 2 * etcdMembers + 4;
  return { certificates, keys: certificates + 1 };
}

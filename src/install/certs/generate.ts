/**
 * Generates the install's certificate set: new RSA keys from Node's native asynchronous
 * generator (all started at once), certificates signed through node-forge with Node's crypto,
 * and what the cluster already has kept as `reuse` decides.
 */
import { UserError } from '../../errors.js';
import {
  type Authority,
  type KeyMaterial,
  createAuthority,
  generateKeyPem,
  isRsaPrivateKey,
  issueCertificate,
} from '../../kube/certs/pki.js';
import { type CaPlan, caAction, leafCertProblem, newKeyReason, planCa, planServiceAccount } from './reuse.js';
import {
  CA_SPECS,
  type CaField,
  type CaSpec,
  DEFAULT_CERT_VALIDITY_DAYS,
  DNS_LABEL,
  type LeafSpec,
  SERVICE_ACCOUNT_SPEC,
  caLabel,
  leafSpecs,
  normalizeAddress,
  pickLeaf,
} from './specs.js';
import type { ApiserverAddress, CertAction, CertSet, CertSetOptions, CertSetResult, KeyPairPem, PartialCertSet } from './types.js';

/** Marks a promise's rejection as handled (it still rejects for whoever awaits it). */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

async function runCaPlan(spec: CaSpec, plan: CaPlan, days: number): Promise<Authority> {
  if (plan.kind === 'reuse') return plan.authority;
  if (plan.kind === 'create') return createAuthority(spec.commonName, days);
  return createAuthority(spec.commonName, days, { keyPem: plan.keyPem, ...(plan.subjectOf ? { sameSubjectAs: plan.subjectOf } : {}) });
}

interface Validated {
  namespace: string;
  address: ApiserverAddress;
  members: number;
  days: number;
  rotate: boolean;
}

function validate(opts: CertSetOptions): Validated {
  const namespace = opts.namespace;
  if (!DNS_LABEL.test(namespace)) throw new UserError(`namespace "${namespace}" is not a valid DNS label`);
  const address = normalizeAddress(opts.apiserverAddress);
  const members = opts.etcdMembers;
  if (!Number.isInteger(members) || members < 1 || members > 9)
    throw new UserError(`the number of etcd members must be a whole number from 1 to 9 (1, or 3 for HA), not ${members}`);
  const days = opts.validityDays ?? DEFAULT_CERT_VALIDITY_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new UserError(`certificate validity must be a whole number of days ≥ 1, not ${days}`);
  return { namespace, address, members, days, rotate: opts.rotate === true };
}

interface IssuedLeaf {
  material: KeyMaterial;
  action: CertAction;
}

/** One leaf: keep a usable key (else start generating one now); decide about the certificate once its CA is settled. */
async function settleLeaf(
  spec: LeafSpec,
  found: PartialCertSet,
  caOf: (f: CaField) => Promise<Authority>,
  v: Validated,
): Promise<IssuedLeaf> {
  const have = pickLeaf(found, spec.place) ?? {};
  const keyUsable = !!have.keyPem && isRsaPrivateKey(have.keyPem);
  const keyPromise = keyUsable ? Promise.resolve(have.keyPem!) : quiet(generateKeyPem().then((k) => k.privateKeyPem));
  const ca = await caOf(spec.ca);
  const base = { id: spec.id, description: spec.description, location: spec.location };
  const keyPem = await keyPromise;
  if (!keyUsable) {
    const material = await issueCertificate(ca, { ...spec.req, days: v.days, keyPem });
    return { material, action: { ...base, action: 'created', reason: newKeyReason(have, v.rotate) } };
  }
  const problem = leafCertProblem(have, ca.certPem, spec, keyPem, caLabel(spec.ca));
  if (!problem) return { material: { certPem: have.certPem!, keyPem }, action: { ...base, action: 'reused', reason: 'present and valid' } };
  const material = await issueCertificate(ca, { ...spec.req, days: v.days, keyPem });
  return { material, action: { ...base, action: 'reissued', reason: `${problem}; new certificate for the existing key` } };
}

function assemble(v: Validated, cas: Authority[], leaves: Map<string, KeyMaterial>, serviceAccount: KeyPairPem): CertSet {
  const leaf = (id: string) => leaves.get(id)!;
  const material = (a: Authority): KeyMaterial => ({ certPem: a.certPem, keyPem: a.keyPem });
  return {
    namespace: v.namespace,
    apiserverAddress: v.address,
    clusterCA: material(cas[0]!),
    etcdCA: material(cas[1]!),
    frontProxyCA: material(cas[2]!),
    apiserver: leaf('apiserver'),
    apiserverEtcdClient: leaf('apiserver-etcd-client'),
    frontProxyClient: leaf('front-proxy-client'),
    etcd: Array.from({ length: v.members }, (_, i) => ({ server: leaf(`etcd-${i}-server`), peer: leaf(`etcd-${i}-peer`) })),
    controllerManager: leaf('controller-manager'),
    scheduler: leaf('scheduler'),
    admin: leaf('admin'),
    agentBootstrap: leaf('agent-bootstrap'),
    serviceAccount,
  };
}

/**
 * Generates the install's certificate set (every CA, certificate and key of the install's Secret
 * table) for `opts`, reusing what `existing` (read back with `certSetFromSecrets`) holds:
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
  const v = validate(opts);
  const found: PartialCertSet = v.rotate ? {} : (existing ?? {});

  // CAs: decide now (throws before anything is generated), then start.
  const caPlans = CA_SPECS.map((spec) => ({ spec, plan: planCa(spec, found[spec.field], v.rotate) }));
  const caPromises = new Map<CaField, Promise<Authority>>();
  for (const { spec, plan } of caPlans) caPromises.set(spec.field, quiet(runCaPlan(spec, plan, v.days)));

  const sa = planServiceAccount(found.serviceAccount, v.rotate);
  const saPromise = sa.keep ? Promise.resolve(sa.keep) : quiet(generateKeyPem());

  const specs = leafSpecs(v.namespace, v.address, v.members);
  const leafTasks = specs.map((spec) => settleLeaf(spec, found, (f) => caPromises.get(f)!, v));

  const [cas, leaves, serviceAccount] = await Promise.all([
    Promise.all(CA_SPECS.map((s) => caPromises.get(s.field)!)),
    Promise.all(leafTasks),
    saPromise,
  ]);

  const byId = new Map(leaves.map((l, i) => [specs[i]!.id, l.material]));
  const actions: CertAction[] = [
    ...caPlans.map(({ spec, plan }) => ({
      id: spec.id,
      description: spec.description,
      location: spec.location,
      action: caAction(plan),
      reason: plan.reason,
    })),
    ...leaves.map((l) => l.action),
    { ...SERVICE_ACCOUNT_SPEC, ...sa.decision },
  ];
  return { set: assemble(v, cas, byId, serviceAccount), actions };
}

import net from 'node:net';
import { CertificatesV1Api, CoreV1Api, type KubeConfig, type V1CertificateSigningRequest, type V1Node } from '@kubernetes/client-node';
import forge from 'node-forge';
import { describeError, makeClient, statusCode } from './client.js';
import { ResilientWatch } from './watch.js';

const { pki, asn1 } = forge;

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const NODE_PREFIX = 'system:node:';

export type CsrCondition = 'Pending' | 'Approved' | 'Denied' | 'Failed' | 'Issued';

/** What a PKCS#10 request asks for. */
export interface ParsedRequest {
  commonName?: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** Set when the request does not parse; the other fields are then empty. */
  error?: string;
}

/** The small summary of a CertificateSigningRequest shown in lists and the panel. */
export interface CsrSummary {
  name: string;
  requester: string;
  groups: string[];
  signer: string;
  usages: string[];
  subject: { commonName?: string; organizations: string[] };
  dnsNames: string[];
  ipAddresses: string[];
  /** RFC 3339 creation time. */
  created?: string;
  condition: CsrCondition;
  /** Reason/message of the deciding condition, if any. */
  conditionDetail?: string;
  /** The node name the subject claims (CN system:node:<name>). */
  nodeName?: string;
  parseError?: string;
  warnings: string[];
}

const EMPTY: ParsedRequest = { organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };

/** PEM text of `spec.request`: the API carries the PEM base64 encoded; PEM given as is is accepted too. */
function requestPem(request: string): string {
  if (request.includes('-----BEGIN')) return request;
  return Buffer.from(request, 'base64').toString('utf8');
}

interface ForgeAttr {
  name?: string;
  shortName?: string;
  type?: string;
  value?: unknown;
  extensions?: { name?: string; altNames?: { type: number; value?: string; ip?: string }[] }[];
}

function fromAttributes(subject: ForgeAttr[], attributes: ForgeAttr[]): ParsedRequest {
  const out: ParsedRequest = { organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  for (const a of subject) {
    if (a.name === 'commonName' && typeof a.value === 'string') out.commonName = a.value;
    if (a.name === 'organizationName' && typeof a.value === 'string') out.organizations.push(a.value);
  }
  const extReq = attributes.find((a) => a.name === 'extensionRequest');
  for (const ext of extReq?.extensions ?? []) {
    if (ext.name !== 'subjectAltName') continue;
    for (const n of ext.altNames ?? []) {
      if (n.type === 2 && n.value !== undefined) out.dnsNames.push(n.value);
      else if (n.type === 7 && n.ip) out.ipAddresses.push(n.ip);
      else if (n.type === 1 && n.value !== undefined) out.emailAddresses.push(n.value);
      else if (n.type === 6 && n.value !== undefined) out.uris.push(n.value);
    }
  }
  return out;
}

/**
 * Subject and SANs of a PKCS#10 request (`spec.request`: base64 of the PEM, or PEM). node-forge's
 * parser reads RSA requests only; other keys (kubelets use ECDSA) are read from the ASN.1 directly.
 */
export function parseCsrRequest(request: string): ParsedRequest {
  let pem: string;
  try {
    pem = requestPem(request);
  } catch {
    return { ...EMPTY, error: 'the request is not base64' };
  }
  try {
    const csr = pki.certificationRequestFromPem(pem);
    return fromAttributes(csr.subject.attributes as ForgeAttr[], (csr as unknown as { attributes: ForgeAttr[] }).attributes ?? []);
  } catch {
    // not RSA, or not a request at all: read the structure itself
  }
  try {
    const msg = forge.pem.decode(pem).find((m) => m.type === 'CERTIFICATE REQUEST' || m.type === 'NEW CERTIFICATE REQUEST');
    if (!msg) return { ...EMPTY, error: 'no PEM CERTIFICATE REQUEST block' };
    const root = asn1.fromDer(msg.body);
    const cri = (root.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
    const helpers = pki as unknown as { RDNAttributesAsArray(a: unknown): ForgeAttr[]; CRIAttributesAsArray(a: unknown): ForgeAttr[] };
    const subject = helpers.RDNAttributesAsArray(cri[1]!);
    const attrsNode = cri.find((n, i) => i >= 3 && n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
    const rdnAttrs = attrsNode ? (helpers.CRIAttributesAsArray(attrsNode.value) ?? []) : [];
    return fromAttributes(subject, rdnAttrs);
  } catch (err) {
    return { ...EMPTY, error: `the request does not parse (${err instanceof Error ? err.message : String(err)})` };
  }
}

type Condition = { type?: string; status?: string; reason?: string; message?: string };

/** Pending, Approved, Denied, Failed or Issued (approved and a certificate is there). */
export function csrCondition(status: { conditions?: Condition[]; certificate?: string } | undefined): { condition: CsrCondition; detail?: string } {
  const conds = (status?.conditions ?? []).filter((c) => c.status === undefined || c.status === 'True');
  const detail = (c: Condition) => [c.reason, c.message].filter(Boolean).join(': ') || undefined;
  const failed = conds.find((c) => c.type === 'Failed');
  if (failed) return { condition: 'Failed', ...opt(detail(failed)) };
  const denied = conds.find((c) => c.type === 'Denied');
  if (denied) return { condition: 'Denied', ...opt(detail(denied)) };
  const approved = conds.find((c) => c.type === 'Approved');
  if (approved) return { condition: status?.certificate ? 'Issued' : 'Approved', ...opt(detail(approved)) };
  return { condition: 'Pending' };
}

function opt(detail: string | undefined): { detail?: string } {
  return detail ? { detail } : {};
}

function iso(t: unknown): string | undefined {
  if (t instanceof Date) return t.toISOString();
  if (typeof t === 'string' && t) return t;
  return undefined;
}

/** The summary of a CSR as the typed client or a watch event delivers it. */
export function summarizeCsr(obj: V1CertificateSigningRequest): CsrSummary {
  const spec = obj.spec ?? ({} as V1CertificateSigningRequest['spec']);
  const parsed = parseCsrRequest(spec?.request ?? '');
  const { condition, detail } = csrCondition(obj.status as { conditions?: Condition[]; certificate?: string } | undefined);
  const cn = parsed.commonName;
  const created = iso(obj.metadata?.creationTimestamp);
  return {
    name: obj.metadata?.name ?? '',
    requester: spec?.username ?? '',
    groups: spec?.groups ?? [],
    signer: spec?.signerName ?? '',
    usages: spec?.usages ?? [],
    subject: { ...(cn !== undefined ? { commonName: cn } : {}), organizations: parsed.organizations },
    dnsNames: parsed.dnsNames,
    ipAddresses: parsed.ipAddresses,
    ...(created ? { created } : {}),
    condition,
    ...(detail ? { conditionDetail: detail } : {}),
    ...(cn?.startsWith(NODE_PREFIX) && cn.length > NODE_PREFIX.length ? { nodeName: cn.slice(NODE_PREFIX.length) } : {}),
    ...(parsed.error ? { parseError: parsed.error } : {}),
    warnings: [],
  };
}

/** A Node's addresses (status.addresses: InternalIP, ExternalIP, Hostname, InternalDNS, ExternalDNS). */
export function nodeAddressesOf(node: V1Node): string[] {
  return (node.status?.addresses ?? []).map((a) => a.address).filter((a): a is string => !!a);
}

const sameIp = (a: string, b: string) => net.isIP(a) !== 0 && net.isIP(b) !== 0 && normalizeIp(a) === normalizeIp(b);
function normalizeIp(ip: string): string {
  if (net.isIPv4(ip)) return ip;
  try {
    // new URL normalises IPv6 text (zero runs, case).
    return new URL(`http://[${ip}]/`).hostname;
  } catch {
    return ip.toLowerCase();
  }
}

/**
 * Warnings of each CSR (pure): several pending requests for one signer claiming one node name
 * from different requesters (a kubelet's own client and serving requests are not a conflict); a kubelet serving request asking for names or IPs that are not the node's
 * addresses (`addresses`: node name → its addresses, `null` when no such Node exists; a node
 * not in the map was not looked up and is not checked). Returns the CSRs with `warnings` set.
 */
export function withWarnings(csrs: CsrSummary[], addresses: Record<string, string[] | null> = {}): CsrSummary[] {
  const claims = new Map<string, Set<string>>();
  for (const c of csrs) {
    if (c.condition !== 'Pending' || !c.nodeName) continue;
    const key = `${c.signer}\0${c.nodeName}`;
    const set = claims.get(key) ?? new Set<string>();
    set.add(c.requester);
    claims.set(key, set);
  }
  return csrs.map((c) => {
    const warnings: string[] = [];
    if (c.parseError) warnings.push(`request: ${c.parseError}`);
    if (c.condition === 'Pending' && c.nodeName) {
      const requesters = claims.get(`${c.signer}\0${c.nodeName}`)!;
      if (requesters.size > 1) {
        const others = [...requesters].filter((r) => r !== c.requester).sort();
        warnings.push(`node ${c.nodeName} is also claimed by pending requests from ${others.join(', ')}`);
      }
    }
    if (c.signer === KUBELET_SERVING_SIGNER && c.condition === 'Pending') {
      if (!c.nodeName) warnings.push(`kubelet serving request whose subject is not system:node:<name> (${c.subject.commonName ?? 'no CN'})`);
      else if (c.nodeName in addresses) {
        const known = addresses[c.nodeName];
        if (known === null || known === undefined) warnings.push(`no Node named ${c.nodeName}: its names and IPs cannot be checked`);
        else {
          const outside = [
            ...c.dnsNames.filter((d) => !known.some((k) => k.toLowerCase() === d.toLowerCase())),
            ...c.ipAddresses.filter((ip) => !known.some((k) => sameIp(k, ip))),
          ];
          if (outside.length) warnings.push(`asks for ${outside.join(', ')}, not among node ${c.nodeName}'s addresses (${known.join(', ') || 'none'})`);
        }
      }
      if (c.requester && c.nodeName && c.requester !== `${NODE_PREFIX}${c.nodeName}`) {
        warnings.push(`requested by ${c.requester}, not by the node ${NODE_PREFIX}${c.nodeName} itself`);
      }
    }
    return { ...c, warnings };
  });
}

/** "45s", "12m", "3h", "2d". */
export function ageOf(created: string | undefined, now = Date.now()): string {
  if (!created) return '?';
  const s = Math.max(0, Math.floor((now - Date.parse(created)) / 1000));
  if (Number.isNaN(s)) return '?';
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172_800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

/** Every CSR of the context's cluster, summarised (no warnings yet), oldest first. */
export async function listCsrs(kc: KubeConfig): Promise<CsrSummary[]> {
  const api = makeClient(kc, CertificatesV1Api);
  const list = await api.listCertificateSigningRequest();
  return sortCsrs(list.items.map(summarizeCsr));
}

function sortCsrs(csrs: CsrSummary[]): CsrSummary[] {
  return csrs.sort((a, b) => (a.created ?? '').localeCompare(b.created ?? '') || a.name.localeCompare(b.name));
}

/** The addresses of the nodes that pending kubelet serving CSRs name (`null`: no such Node). */
export async function servingNodeAddresses(kc: KubeConfig, csrs: CsrSummary[]): Promise<Record<string, string[] | null>> {
  const names = [...new Set(csrs.filter((c) => c.condition === 'Pending' && c.signer === KUBELET_SERVING_SIGNER && c.nodeName).map((c) => c.nodeName!))];
  if (names.length === 0) return {};
  const core = makeClient(kc, CoreV1Api);
  const out: Record<string, string[] | null> = {};
  await Promise.all(
    names.map(async (name) => {
      try {
        out[name] = nodeAddressesOf(await core.readNode({ name }));
      } catch (err) {
        if (statusCode(err) === 404) out[name] = null;
        // other errors (e.g. forbidden): not checked
      }
    }),
  );
  return out;
}

/** Every CSR with its warnings. */
export async function listCsrsWithWarnings(kc: KubeConfig): Promise<CsrSummary[]> {
  const csrs = await listCsrs(kc);
  return withWarnings(csrs, await servingNodeAddresses(kc, csrs));
}

export type Decision = 'Approved' | 'Denied';

export interface DecideResult {
  name: string;
  /** `changed`: this call decided it; `unchanged`: it already had this decision; `conflict`: it had the other one (or failed). */
  outcome: 'changed' | 'unchanged' | 'conflict';
  condition: CsrCondition;
  line: string;
}

/**
 * Approves or denies a CSR through its approval subresource (idempotent: a CSR that already
 * has the decision is left as it is; one decided the other way is reported, not changed).
 * Retries on 409 (someone changed it in between).
 */
export async function decide(kc: KubeConfig, name: string, decision: Decision, message = `${decision.toLowerCase()} with fleetdeck`): Promise<DecideResult> {
  const api = makeClient(kc, CertificatesV1Api);
  const verb = decision === 'Approved' ? 'approved' : 'denied';
  for (let attempt = 0; ; attempt++) {
    const csr = await api.readCertificateSigningRequest({ name });
    const { condition } = csrCondition(csr.status as { conditions?: Condition[]; certificate?: string });
    const already = condition === 'Issued' ? 'Approved' : condition;
    if (already === decision) return { name, outcome: 'unchanged', condition, line: `${name}: already ${verb}${condition === 'Issued' ? ' (certificate issued)' : ''}, nothing to do` };
    if (already !== 'Pending') return { name, outcome: 'conflict', condition, line: `${name}: already ${condition.toLowerCase()}, cannot be ${verb} any more (a decision is final)` };
    const now = new Date();
    csr.status = {
      ...csr.status,
      conditions: [
        ...(csr.status?.conditions ?? []),
        { type: decision, status: 'True', reason: decision === 'Approved' ? 'FleetdeckApprove' : 'FleetdeckDeny', message, lastUpdateTime: now, lastTransitionTime: now },
      ],
    };
    try {
      const updated = await api.replaceCertificateSigningRequestApproval({ name, body: csr });
      const c = csrCondition(updated.status as { conditions?: Condition[]; certificate?: string }).condition;
      return { name, outcome: 'changed', condition: c, line: `${name}: ${verb}` };
    } catch (err) {
      if (statusCode(err) === 409 && attempt < 4) continue;
      throw err;
    }
  }
}

export const approve = (kc: KubeConfig, name: string, message?: string) => decide(kc, name, 'Approved', message);
export const deny = (kc: KubeConfig, name: string, message?: string) => decide(kc, name, 'Denied', message);

export interface CsrWatchHandlers {
  /** The full set after every change (with warnings; node addresses looked up as needed). */
  onChange: (csrs: CsrSummary[]) => void;
  /** A CSR seen for the first time after the initial list (for auto-approval). */
  onNew?: (csr: CsrSummary) => void;
  onError?: (message: string) => void;
}

/** Live CSRs of a context (list then watch, resilient). `stop()` ends it. */
export function watchCsrs(kc: KubeConfig, h: CsrWatchHandlers): { stop: () => Promise<void> } {
  const api = makeClient(kc, CertificatesV1Api);
  const byName = new Map<string, CsrSummary>();
  let listed = false;
  let seq = 0;
  let addresses: Record<string, string[] | null> = {};
  const emit = async () => {
    const mine = ++seq;
    const all = sortCsrs([...byName.values()]);
    h.onChange(withWarnings(all, addresses));
    const missing = all.some((c) => c.condition === 'Pending' && c.signer === KUBELET_SERVING_SIGNER && c.nodeName && !(c.nodeName in addresses));
    if (!missing) return;
    try {
      addresses = { ...addresses, ...(await servingNodeAddresses(kc, all)) };
      if (mine === seq) h.onChange(withWarnings(sortCsrs([...byName.values()]), addresses));
    } catch (err) {
      h.onError?.(describeError(err));
    }
  };
  const w = new ResilientWatch<V1CertificateSigningRequest>({
    kc,
    path: '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    list: () => api.listCertificateSigningRequest(),
    onList: (items) => {
      const before = new Set(byName.keys());
      byName.clear();
      for (const i of items) {
        const s = summarizeCsr(i);
        byName.set(s.name, s);
        if (listed && !before.has(s.name)) h.onNew?.(s);
      }
      listed = true;
      void emit();
    },
    onEvent: (type, obj) => {
      const s = summarizeCsr(obj);
      if (type === 'DELETED') byName.delete(s.name);
      else {
        const isNew = !byName.has(s.name);
        byName.set(s.name, s);
        if (isNew) h.onNew?.(s);
      }
      void emit();
    },
    onError: (message) => h.onError?.(message),
  });
  w.start();
  return { stop: () => w.stop() };
}

/** What {@link makeCsrPem} puts in a request. */
export interface CsrRequestSpec {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
}

/**
 * A PEM PKCS#10 request (RSA 2048 key, SHA-256) for the subject and SANs given, and its private
 * key (PKCS#8 PEM; never print it). For tests and the sandbox: real kubelets make their own.
 */
export async function makeCsrPem(spec: CsrRequestSpec): Promise<{ csrPem: string; keyPem: string }> {
  const keys = await new Promise<forge.pki.rsa.KeyPair>((resolve, reject) =>
    pki.rsa.generateKeyPair({ bits: 2048, workers: -1 }, (err, pair) => (err ? reject(err) : resolve(pair))),
  );
  const csr = pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })), { name: 'commonName', value: spec.commonName }]);
  const altNames = [...(spec.dnsNames ?? []).map((d) => ({ type: 2, value: d })), ...(spec.ipAddresses ?? []).map((ip) => ({ type: 7, ip }))];
  if (altNames.length) csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(keys.privateKey, forge.md.sha256.create());
  return { csrPem: pki.certificationRequestToPem(csr), keyPem: pki.privateKeyInfoToPem(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(keys.privateKey))) };
}

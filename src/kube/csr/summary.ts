/**
 * CertificateSigningRequests (certificates.k8s.io/v1) as small summaries, and their warnings:
 * pure functions of the objects (reading them is watch.ts, deciding them decide.ts,
 * the PKCS#10 request inside them request.ts).
 */
import net from 'node:net';
import type { V1CertificateSigningRequest, V1Node } from '@kubernetes/client-node';
import { parseCsrRequest } from './request.js';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
export const NODE_PREFIX = 'system:node:';

export type CsrCondition = 'Pending' | 'Approved' | 'Denied' | 'Failed' | 'Issued';

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

export type Condition = { type?: string; status?: string; reason?: string; message?: string };

/** Pending, Approved, Denied, Failed or Issued (approved and a certificate is there). */
export function csrCondition(status: { conditions?: Condition[]; certificate?: string } | undefined): {
  condition: CsrCondition;
  detail?: string;
} {
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

/** Oldest first, then by name. */
export function sortCsrs(csrs: CsrSummary[]): CsrSummary[] {
  return csrs.sort((a, b) => (a.created ?? '').localeCompare(b.created ?? '') || a.name.localeCompare(b.name));
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
      if (!c.nodeName)
        warnings.push(`kubelet serving request whose subject is not system:node:<name> (${c.subject.commonName ?? 'no CN'})`);
      else if (c.nodeName in addresses) {
        const known = addresses[c.nodeName];
        if (known === null || known === undefined) warnings.push(`no Node named ${c.nodeName}: its names and IPs cannot be checked`);
        else {
          const outside = [
            ...c.dnsNames.filter((d) => !known.some((k) => k.toLowerCase() === d.toLowerCase())),
            ...c.ipAddresses.filter((ip) => !known.some((k) => sameIp(k, ip))),
          ];
          if (outside.length)
            warnings.push(`asks for ${outside.join(', ')}, not among node ${c.nodeName}'s addresses (${known.join(', ') || 'none'})`);
        }
      }
      if (c.requester && c.nodeName && c.requester !== `${NODE_PREFIX}${c.nodeName}`) {
        warnings.push(`requested by ${c.requester}, not by the node ${NODE_PREFIX}${c.nodeName} itself`);
      }
    }
    return { ...c, warnings };
  });
}

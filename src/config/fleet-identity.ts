/**
 * The fleet file knows its clusters: for each context of the fleet it records the API server's
 * URL and the fingerprints of the CA certificates the context trusted when the fleet was
 * recorded, and the kubeconfig it came from. A context of the same name that now points at
 * another cluster (another server, or no CA in common) — or that is gone — is a problem of that
 * role, said with what was recorded and what the kubeconfig says now, never a silent mix of
 * two fleets. fleetdeck's own CA rotation records the control plane's new CA as it hands it over.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { type ClusterIdentity, identityOf } from '../kube/config/identity.js';

/** What the fleet file records of one context. */
export interface RecordedIdentity extends Omit<ClusterIdentity, 'ca'> {
  /** SHA-256 fingerprints of the CAs the context trusted (none: it skipped verification, or the file predates them). */
  ca?: string[];
  /** The kubeconfig file(s) the context was read from (`:`-joined, as KUBECONFIG). */
  kubeconfig?: string;
}

export type Identities = Record<string, RecordedIdentity>;

/** One context's problem: what the checklist row and a refusing command say. */
export interface IdentityProblem {
  detail: string;
  hint: string;
}

const FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/;

/** Checks the `identities` field as read from the file; `bad` says what is wrong. */
export function checkIdentities(v: unknown, bad: (what: string) => never): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) bad('"identities" must be a mapping of context names');
  for (const [context, id] of Object.entries(v as Record<string, unknown>)) {
    const o = id as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null || typeof o.server !== 'string' || !o.server)
      bad(`"identities.${context}" needs a server (the API server's URL)`);
    if (o.ca !== undefined && (!Array.isArray(o.ca) || o.ca.some((f) => typeof f !== 'string' || !FINGERPRINT.test(f))))
      bad(`"identities.${context}.ca" must be a list of SHA-256 fingerprints (AB:CD:…)`);
    if (o.kubeconfig !== undefined && typeof o.kubeconfig !== 'string') bad(`"identities.${context}.kubeconfig" must be a string`);
  }
}

/** The identities of `contexts`, each from the KubeConfig that holds it (contexts no config holds are left out). */
export function recordIdentities(contexts: readonly { context: string; kc: KubeConfig }[], kubeconfig?: string): Identities {
  const out: Identities = {};
  for (const { context, kc } of contexts) {
    const id = identityOf(kc, context);
    if (id) out[context] = { ...id, ...(kubeconfig ? { kubeconfig } : {}) };
  }
  return out;
}

/** A server URL as compared: scheme and host in lower case, no default port, no trailing slash. */
export function sameServer(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const url = new URL(u);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u.replace(/\/+$/, '').toLowerCase();
    }
  };
  return norm(a) === norm(b);
}

const shortCa = (ca: readonly string[]) => {
  const f = ca[0];
  if (!f) return 'no CA';
  return `CA ${f.slice(0, 8)}…${f.slice(-5)}${ca.length > 1 ? ` +${ca.length - 1}` : ''}`;
};
const described = (id: RecordedIdentity) => `${id.server} (${shortCa(id.ca ?? [])})`;

/** The problem of `context` against its record, or undefined when it is the cluster recorded (or nothing was recorded). */
export function identityProblem(
  context: string,
  recorded: RecordedIdentity | undefined,
  config: KubeConfig,
  fleetFile: string,
): IdentityProblem | undefined {
  if (!recorded) return undefined;
  const from = recorded.kubeconfig ? ` (${recorded.kubeconfig})` : '';
  const hint = `point KUBECONFIG (or --kubeconfig) at the kubeconfig of the fleet recorded${from}; if that fleet is gone (or these are its clusters now), remove ${fleetFile} and install again, which records them`;
  const now = identityOf(config, context);
  if (!now) return { detail: `context ${context} is not in the kubeconfig (the fleet file recorded it as ${described(recorded)})`, hint };
  const ca = recorded.ca ?? [];
  const caDiffers = ca.length > 0 && now.ca.length > 0 && !ca.some((f) => now.ca.includes(f));
  const server = sameServer(now.server, recorded.server);
  if (server && !caDiffers) return undefined;
  return {
    detail: server
      ? `context ${context} trusts another CA than the fleet file recorded (a new cluster at the same address, or a rotated CA): it recorded ${described(recorded)}, the kubeconfig says ${described(now)}`
      : `context ${context} is another cluster than the fleet file recorded: it recorded ${described(recorded)}, the kubeconfig says ${described(now)}`,
    hint,
  };
}

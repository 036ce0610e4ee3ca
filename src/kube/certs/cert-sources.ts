/**
 * Where the fleet's certificates are read from: Secrets (their `*.crt` keys and the client
 * certificate of an embedded kubeconfig) and the user's kubeconfig. Only certificate metadata
 * leaves this file: private keys are never parsed, Secret data is never kept.
 */
import fs from 'node:fs';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { type CertDetail, certDetailsFromPem, isCertKey } from './certs.js';
import { describeError, makeClient, statusCode } from '../transport/client.js';
import { credentialsProblem, type KubeUser, openError } from '../transport/credentials.js';

/** What one Secret holds in certificates: by data key (`*.crt`, or `kubeconfig` for the embedded client certificate). */
export type SecretCerts =
  | { name: string; state: 'read'; keys: string[]; certs: Record<string, CertDetail[]> }
  | { name: string; state: 'missing' }
  | { name: string; state: 'error'; message: string };

interface KubeconfigDoc {
  'current-context'?: string;
  contexts?: { name?: string; context?: { user?: string } }[];
  users?: { name?: string; user?: Record<string, unknown> }[];
}

/** The `user` mapping of a kubeconfig text's current user (or its only user); undefined when there is none or the text does not parse. */
export function kubeconfigCurrentUser(text: string): Record<string, unknown> | undefined {
  try {
    const doc = parseYaml(text) as KubeconfigDoc | null;
    const users = Array.isArray(doc?.users) ? doc.users : [];
    const userName = doc?.contexts?.find((c) => c?.name === doc['current-context'])?.context?.user;
    return (users.find((u) => u?.name === userName) ?? (users.length === 1 ? users[0] : undefined))?.user;
  } catch {
    return undefined;
  }
}

/** The client certificate (only the certificate: the key is not looked at) of a kubeconfig's current user, or its only user. */
export function kubeconfigClientCert(text: string): CertDetail[] {
  const data = kubeconfigCurrentUser(text)?.['client-certificate-data'];
  return typeof data === 'string' ? certDetailsFromPem(Buffer.from(data, 'base64').toString('utf8')) : [];
}

function certsOf(data: Record<string, string>): Record<string, CertDetail[]> {
  const out: Record<string, CertDetail[]> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') continue;
    if (isCertKey(key)) out[key] = certDetailsFromPem(Buffer.from(value, 'base64').toString('utf8'));
    else if (key === 'kubeconfig') out[key] = kubeconfigClientCert(Buffer.from(value, 'base64').toString('utf8'));
  }
  return out;
}

/** Reads the Secrets `names` of `namespace` one after another; a 404 is `missing`, any other failure `error` with one line. */
export async function readSecretCerts(kc: KubeConfig, namespace: string, names: readonly string[]): Promise<SecretCerts[]> {
  const core = makeClient(kc, CoreV1Api);
  const out: SecretCerts[] = [];
  for (const name of names) {
    try {
      const s = await core.readNamespacedSecret({ name, namespace });
      const data = s.data ?? {};
      out.push({ name, state: 'read', keys: Object.keys(data).sort(), certs: certsOf(data) });
    } catch (err) {
      const code = statusCode(err);
      if (code === 404) out.push({ name, state: 'missing' });
      else if (code === 403) out.push({ name, state: 'error', message: `forbidden: cannot get secrets in namespace ${namespace}` });
      else out.push({ name, state: 'error', message: describeError(err) });
    }
  }
  return out;
}

/** The credential of one kubeconfig context's user, as far as certificates go. */
export type ContextCredential =
  | { context: string; user: string; kind: 'certificate'; certs: CertDetail[]; source: string }
  | { context: string; user: string; kind: 'unreadable'; source: string; message: string }
  | { context: string; user: string; kind: 'other'; method: string };

/** Every context of `config` with its user's client certificate (data or file), or how it authenticates instead. */
export function kubeconfigCredentials(config: KubeConfig): ContextCredential[] {
  return config.getContexts().map((c): ContextCredential => {
    const u = config.getUser(c.user) as KubeUser | null;
    const user = c.user;
    if (u?.certData) {
      const certs = certDetailsFromPem(Buffer.from(u.certData, 'base64').toString('utf8'));
      const source = 'client-certificate-data';
      return certs.length
        ? { context: c.name, user, kind: 'certificate', certs, source }
        : { context: c.name, user, kind: 'unreadable', source, message: 'client-certificate-data is not a PEM certificate' };
    }
    if (u?.certFile) {
      let text: string;
      try {
        text = fs.readFileSync(u.certFile, 'utf8');
      } catch (err) {
        return { context: c.name, user, kind: 'unreadable', source: u.certFile, message: openError(u.certFile, err) };
      }
      const certs = certDetailsFromPem(text);
      return certs.length
        ? { context: c.name, user, kind: 'certificate', certs, source: u.certFile }
        : { context: c.name, user, kind: 'unreadable', source: u.certFile, message: `${u.certFile} is not a PEM certificate` };
    }
    const method = u?.exec
      ? 'exec plugin'
      : u?.authProvider
        ? 'auth provider'
        : u?.token || u?.tokenFile || u?.staticToken
          ? 'token'
          : u?.username
            ? 'basic auth'
            : 'none';
    return { context: c.name, user, kind: 'other', method };
  });
}

/** Everything the certificate inventory is made of, as read (certificate metadata only). */
export interface CertSources {
  /** The fleet namespace (of the control plane's Secrets and the agents' init kubeconfig). */
  namespace: string;
  /** The control plane's Secrets in the hosting context; undefined when no hosting context was given (no fleet). */
  controlPlane?: SecretCerts[];
  /** Each workload context's init kubeconfig Secret. */
  agents: { context: string; secret: SecretCerts }[];
  /** Every kubeconfig context's credential. */
  credentials: ContextCredential[];
}

/** Where to read: the hosting context (none without a fleet), the namespace, the workload contexts, and the Secrets' names. */
export interface CertTargets {
  hosting?: string | undefined;
  namespace: string;
  workloads: readonly string[];
  /** The control plane's certificate Secrets, and the agents' init kubeconfig Secret. */
  secrets: { controlPlane: readonly string[]; agentInit: string };
}

/** The Secrets `names` of a context; when its credentials cannot be used, every one unreadable with the reason (nothing is sent). */
async function secretsIn(kc: KubeConfig, context: string, namespace: string, names: readonly string[]): Promise<SecretCerts[]> {
  const problem = credentialsProblem(kc);
  if (problem) return names.map((name) => ({ name, state: 'error', message: `context ${context}: ${problem.message}` }));
  return readSecretCerts(kc, namespace, names);
}

/** Reads every source at once (`kc(context)`: that context's KubeConfig; `config`: the whole kubeconfig); nothing is written. */
export async function readCertSources(kc: (context: string) => KubeConfig, config: KubeConfig, t: CertTargets): Promise<CertSources> {
  const [cp, ...init] = await Promise.all([
    t.hosting === undefined ? undefined : secretsIn(kc(t.hosting), t.hosting, t.namespace, t.secrets.controlPlane),
    ...t.workloads.map((w) => secretsIn(kc(w), w, t.namespace, [t.secrets.agentInit])),
  ]);
  return {
    namespace: t.namespace,
    ...(cp ? { controlPlane: cp } : {}),
    agents: t.workloads.map((context, i) => ({ context, secret: init[i]![0]! })),
    credentials: kubeconfigCredentials(config),
  };
}

/**
 * The fleet's certificate inventory (pure): one row per certificate from what was read (the
 * control plane's Secrets, the agents' init kubeconfig Secrets, the user's kubeconfig), with
 * its state against a warning window. Certificate metadata only.
 */
import { formatDuration } from '../../duration.js';
import type { CertDetail } from '../../kube/certs/certs.js';
import type { CertSources, ContextCredential, SecretCerts } from '../../kube/certs/cert-sources.js';
import { type CERT_SECRET_NAMES, INIT_KUBECONFIG_SECRET, SERVICE_ACCOUNT_SPEC } from '../../install/certs/specs.js';

export type CertGroup = 'control-plane' | 'kubeconfig' | 'agent-init';
export type CertState = 'ok' | 'warn' | 'fail';

export interface CertRow {
  name: string;
  group: CertGroup;
  subject?: string;
  issuer?: string;
  sans: string[];
  serial?: string;
  notBefore?: number;
  /** Epoch ms; absent for a key with no expiry and for what could not be read. */
  notAfter?: number;
  /** A key pair without a certificate (the service-account key). */
  noExpiry?: boolean;
  usedBy: string;
  /** Where it was read: `Secret elotl/nova-admin: tls.crt`, `kubeconfig user alice`. */
  source: string;
  /** Why there is no certificate to show: `cannot read (forbidden: …)`, `missing (…)`. */
  problem?: string;
}

interface Place {
  secret: (typeof CERT_SECRET_NAMES)[number];
  key: string;
  name: string;
  usedBy: string;
}

const PLACES: readonly Place[] = [
  { secret: 'nova-ca', key: 'ca.crt', name: 'cluster-ca', usedBy: 'every component and client (trust)' },
  { secret: 'nova-etcd-ca', key: 'ca.crt', name: 'etcd-ca', usedBy: 'etcd, kube-apiserver (etcd trust)' },
  { secret: 'nova-front-proxy-ca', key: 'ca.crt', name: 'front-proxy-ca', usedBy: 'kube-apiserver (aggregation trust)' },
  { secret: 'nova-apiserver-certs', key: 'apiserver.crt', name: 'apiserver', usedBy: 'kube-apiserver (serving)' },
  { secret: 'nova-apiserver-certs', key: 'apiserver-etcd-client.crt', name: 'apiserver-etcd-client', usedBy: 'kube-apiserver -> etcd' },
  {
    secret: 'nova-apiserver-certs',
    key: 'front-proxy-client.crt',
    name: 'front-proxy-client',
    usedBy: 'kube-apiserver -> aggregated APIs',
  },
  { secret: 'nova-controller-manager', key: 'kubeconfig', name: 'controller-manager', usedBy: 'kube-controller-manager' },
  { secret: 'nova-scheduler', key: 'kubeconfig', name: 'scheduler', usedBy: 'nova-scheduler' },
  { secret: 'nova-admin', key: 'tls.crt', name: 'admin', usedBy: "the install's admin kubeconfig" },
  { secret: 'nova-agent-bootstrap', key: 'tls.crt', name: 'agent-bootstrap', usedBy: 'nova-agent (embedded in the init kubeconfig)' },
];

const ETCD_KEY = /^etcd-(\d+)-(server|peer)\.crt$/;

function fromDetails(base: Omit<CertRow, 'sans'>, certs: CertDetail[]): CertRow[] {
  return certs.map((c, i) => ({
    ...base,
    name: certs.length > 1 ? `${base.name}#${i + 1}` : base.name,
    subject: c.subject,
    issuer: c.issuer,
    sans: c.sans,
    serial: c.serial,
    notBefore: c.notBefore,
    notAfter: c.notAfter,
  }));
}

function unreadable(s: SecretCerts): string | undefined {
  if (s.state === 'error') return `cannot read (${s.message})`;
  if (s.state === 'missing') return `missing (no Secret ${s.name})`;
  return undefined;
}

/** The control plane's certificates from its Secrets in the hosting context's `namespace`. */
export function controlPlaneRows(namespace: string, secrets: readonly SecretCerts[]): CertRow[] {
  const by = new Map(secrets.map((s) => [s.name, s]));
  if (secrets.length > 0 && secrets.every((s) => s.state === 'missing')) {
    return [
      {
        name: 'control-plane',
        group: 'control-plane',
        sans: [],
        usedBy: 'control plane',
        source: `Secrets in namespace ${namespace}`,
        problem: `missing (no certificate Secret in namespace ${namespace}: is the control plane installed?)`,
      },
    ];
  }
  const one = (secret: string, key: string, name: string, usedBy: string): CertRow[] => {
    const s = by.get(secret);
    const base = { name, group: 'control-plane' as const, usedBy, source: `Secret ${namespace}/${secret}: ${key}` };
    if (!s) return [];
    const problem = unreadable(s);
    if (problem) return [{ ...base, sans: [], problem }];
    if (s.state !== 'read') return [];
    const certs = s.certs[key];
    if (!certs || certs.length === 0) {
      const why = s.keys.includes(key) ? `${key} holds no readable certificate` : `no key ${key}`;
      return [{ ...base, sans: [], problem: `missing (${why} in Secret ${secret})` }];
    }
    return fromDetails(base, certs);
  };
  const rows: CertRow[] = [];
  const add = (place: Place) => rows.push(...one(place.secret, place.key, place.name, place.usedBy));
  PLACES.slice(0, 6).forEach(add);
  rows.push(...etcdRows(namespace, by.get('nova-etcd-certs'), one));
  PLACES.slice(6).forEach(add);
  rows.push(serviceAccountRow(namespace, by.get('nova-apiserver-certs')));
  return rows;
}

function etcdRows(
  namespace: string,
  s: SecretCerts | undefined,
  one: (secret: string, key: string, name: string, usedBy: string) => CertRow[],
): CertRow[] {
  if (!s) return [];
  const problem = unreadable(s);
  if (problem)
    return [{ name: 'etcd', group: 'control-plane', sans: [], usedBy: 'etcd', source: `Secret ${namespace}/${s.name}`, problem }];
  if (s.state !== 'read') return [];
  const keys = Object.keys(s.certs)
    .map((k) => ETCD_KEY.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]) || (a[2] === 'server' ? -1 : 1));
  return keys.flatMap((m) =>
    one(s.name, m[0], `etcd-${m[1]}-${m[2]}`, `etcd-${m[1]} (${m[2] === 'server' ? 'serving, clients' : 'peers'})`),
  );
}

function serviceAccountRow(namespace: string, s: SecretCerts | undefined): CertRow {
  const base = {
    name: SERVICE_ACCOUNT_SPEC.id,
    group: 'control-plane' as const,
    sans: [],
    usedBy: 'kube-apiserver, kube-controller-manager (token signing)',
    source: `Secret ${namespace}/nova-apiserver-certs: sa.pub`,
  };
  const problem = s ? unreadable(s) : 'missing (no Secret nova-apiserver-certs)';
  if (problem) return { ...base, problem };
  if (s?.state === 'read' && !s.keys.includes('sa.pub'))
    return { ...base, problem: 'missing (no key sa.pub in Secret nova-apiserver-certs)' };
  return { ...base, noExpiry: true };
}

/** The client certificate of each workload cluster's init kubeconfig (the agent's first credential). */
export function agentInitRows(namespace: string, read: readonly { context: string; secret: SecretCerts }[]): CertRow[] {
  return read.flatMap(({ context, secret }) => {
    const base = {
      name: 'init-kubeconfig',
      group: 'agent-init' as const,
      usedBy: `nova-agent in ${context}`,
      source: `Secret ${namespace}/${INIT_KUBECONFIG_SECRET}: kubeconfig (context ${context})`,
    };
    const problem = unreadable(secret);
    if (problem) return [{ ...base, sans: [], problem }];
    const certs = secret.state === 'read' ? (secret.certs.kubeconfig ?? []) : [];
    if (certs.length === 0) return [{ ...base, sans: [], problem: 'missing (the init kubeconfig embeds no client certificate)' }];
    return fromDetails(base, certs);
  });
}

/** One row per kubeconfig user with a client certificate (its contexts in USED BY); the others are returned as skipped. */
export function kubeconfigRows(creds: readonly ContextCredential[]): {
  rows: CertRow[];
  skipped: { context: string; user: string; method: string }[];
} {
  const rows: CertRow[] = [];
  const skipped: { context: string; user: string; method: string }[] = [];
  type WithCert = Exclude<ContextCredential, { kind: 'other' }>;
  const users = new Map<string, WithCert[]>();
  for (const c of creds) {
    if (c.kind === 'other') skipped.push({ context: c.context, user: c.user, method: c.method });
    else users.set(c.user, [...(users.get(c.user) ?? []), c]);
  }
  for (const [user, list] of users) {
    const first = list[0]!;
    const base = {
      name: user,
      group: 'kubeconfig' as const,
      usedBy: `context ${list.map((c) => c.context).join(', ')}`,
      source: `kubeconfig user ${user}: ${first.source}`,
    };
    if (first.kind === 'unreadable') rows.push({ ...base, sans: [], problem: `cannot read (${first.message})` });
    else if (first.kind === 'certificate') rows.push(...fromDetails(base, first.certs));
  }
  return { rows, skipped };
}

export interface CertInventory {
  rows: CertRow[];
  /** Kubeconfig contexts whose user has no client certificate (token, exec plugin, …). */
  skipped: { context: string; user: string; method: string }[];
}

/** The inventory from what was read: the control plane's set, the agents' init kubeconfig, the kubeconfig's client certificates. */
export function certInventory(sources: CertSources): CertInventory {
  const kubeconfig = kubeconfigRows(sources.credentials);
  return {
    rows: [
      ...(sources.controlPlane ? controlPlaneRows(sources.namespace, sources.controlPlane) : []),
      ...agentInitRows(sources.namespace, sources.agents),
      ...kubeconfig.rows,
    ],
    skipped: kubeconfig.skipped,
  };
}

const DAY = 86_400_000;

/** ok, warn (expires within `warnDays`), fail (expired, not yet valid, missing or unreadable). */
export function certState(row: CertRow, now: number, warnDays: number): CertState {
  if (row.problem) return 'fail';
  if (row.noExpiry || row.notAfter === undefined) return 'ok';
  if (row.notAfter <= now || (row.notBefore !== undefined && row.notBefore > now)) return 'fail';
  return row.notAfter - now <= warnDays * DAY ? 'warn' : 'ok';
}

/** Days, hours or minutes (at least one): a certificate's time is not told in seconds. */
const span = (ms: number) => formatDuration(Math.max(ms, 60_000), 'age');

/** Time left: `364d`, `5h`, `12m`; `expired 3d ago`; `no expiry`; `-` for what could not be read. */
export function residual(row: CertRow, now: number): string {
  if (row.noExpiry) return 'no expiry';
  if (row.notAfter === undefined) return '-';
  const left = row.notAfter - now;
  return left > 0 ? span(left) : `expired ${span(-left)} ago`;
}

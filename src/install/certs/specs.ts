/**
 * Which certificates the install needs (pure): the three CAs, every leaf with its subject,
 * usage and SANs, the Secrets and data keys they live in, and the API server's addresses.
 */
import net from 'node:net';
import { UserError } from '../../errors.js';
import type { CertRequest, KeyMaterial } from '../../kube/certs/pki.js';
import type { ApiserverAddress, PartialCertSet } from './types.js';

/** Default certificate validity: 10 years. */
export const DEFAULT_CERT_VALIDITY_DAYS = 3650;

/** Labels on every Secret of the set (the labels on everything the install creates). */
export const CERT_SECRET_LABELS: Readonly<Record<string, string>> = Object.freeze({
  'app.kubernetes.io/managed-by': 'fleetdeck',
  'app.kubernetes.io/part-of': 'nova',
});

/** Names of the Secrets of the set, in the order `certSecrets` returns them. */
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

/** The agents' init kubeconfig (key `kubeconfig`): in the control plane and, copied, in each workload cluster's fleet namespace. */
export const INIT_KUBECONFIG_SECRET = 'nova-cluster-init-kubeconfig';

export type CaField = 'clusterCA' | 'etcdCA' | 'frontProxyCA';
export type LeafField =
  | 'apiserver'
  | 'apiserverEtcdClient'
  | 'frontProxyClient'
  | 'controllerManager'
  | 'scheduler'
  | 'admin'
  | 'agentBootstrap';

export interface CaSpec {
  field: CaField;
  id: string;
  description: string;
  location: string;
  commonName: string;
}

export const CA_SPECS: readonly CaSpec[] = [
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

/** The description of the CA in `field` ("etcd CA"). */
export function caLabel(field: CaField): string {
  return CA_SPECS.find((c) => c.field === field)!.description;
}

export type LeafPlace = { field: LeafField } | { member: number; role: 'server' | 'peer' };

export interface LeafSpec {
  id: string;
  description: string;
  location: string;
  ca: CaField;
  place: LeafPlace;
  req: Omit<CertRequest, 'days' | 'keyPem'>;
}

/** The service-account key pair's place in the action list. */
export const SERVICE_ACCOUNT_SPEC = {
  id: 'service-account-key',
  description: 'service-account key pair',
  location: 'nova-apiserver-certs: sa.key, sa.pub; nova-controller-manager: sa.key',
} as const;

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

function apiserverLeaves(namespace: string, address: ApiserverAddress): LeafSpec[] {
  return [
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
}

function etcdLeaves(namespace: string, members: number): LeafSpec[] {
  const specs: LeafSpec[] = [];
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
  return specs;
}

const CLIENT_LEAVES: readonly LeafSpec[] = [
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
];

/** Every leaf certificate of the set, in the fixed order of the action list. */
export function leafSpecs(namespace: string, address: ApiserverAddress, members: number): LeafSpec[] {
  return [...apiserverLeaves(namespace, address), ...etcdLeaves(namespace, members), ...CLIENT_LEAVES.map((s) => ({ ...s }))];
}

/** What was found for one leaf. */
export function pickLeaf(p: PartialCertSet, place: LeafPlace): Partial<KeyMaterial> | undefined {
  return 'field' in place ? p[place.field] : p.etcd?.[place.member]?.[place.role];
}

export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;

/**
 * The address with surrounding blanks removed and the hostname lower-cased; a hostname that is
 * an IP literal counts as the IP. Throws when neither is usable.
 */
export function normalizeAddress(address: ApiserverAddress): ApiserverAddress {
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
  if (!ip && !hostname)
    throw new UserError('the API server LoadBalancer address is needed (an IP or a hostname) to issue its serving certificate');
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

/** Number of certificates and of private keys in a set with `etcdMembers` members (CAs and the service-account pair included). */
export function certSetCounts(etcdMembers: number): { certificates: number; keys: number } {
  const certificates = 3 + 3 + 2 * etcdMembers + 4;
  return { certificates, keys: certificates + 1 };
}

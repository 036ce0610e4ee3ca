/**
 * The certificate set as Secret manifests, and back: the install's Secret table (names, data
 * keys, labels) in both directions. Values hold private keys: never print them.
 */
import type { V1Secret } from '@kubernetes/client-node';
import { keyMatchesCertificate } from '../../kube/certs/pki.js';
import { b64, componentKubeconfig, kubeconfigClient } from './kubeconfigs.js';
import { CERT_SECRET_LABELS, CERT_SECRET_NAMES } from './specs.js';
import type { CertSet, KeyMaterial, PartialCertSet } from './types.js';

function secret(name: string, namespace: string, data: Record<string, string>): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels: { ...CERT_SECRET_LABELS } },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

function etcdData(set: CertSet): Record<string, string> {
  const data: Record<string, string> = { 'ca.crt': set.etcdCA.certPem };
  set.etcd.forEach((m, i) => {
    data[`etcd-${i}-server.crt`] = m.server.certPem;
    data[`etcd-${i}-server.key`] = m.server.keyPem;
    data[`etcd-${i}-peer.crt`] = m.peer.certPem;
    data[`etcd-${i}-peer.key`] = m.peer.keyPem;
  });
  return data;
}

function apiserverData(set: CertSet): Record<string, string> {
  return {
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
  };
}

/**
 * The install's certificate Secrets for `set`, in `CERT_SECRET_NAMES` order: type
 * Opaque, values base64 in `data`, the fleetdeck labels, `metadata.namespace` = `namespace`.
 * The controller-manager and scheduler kubeconfigs point at `https://apiserver.<NS>.svc:443`.
 *
 * @throws Error when `namespace` is not the one the set was issued for (its SANs name it).
 */
export function certSecrets(set: CertSet, namespace: string = set.namespace): V1Secret[] {
  if (namespace !== set.namespace) {
    throw new Error(`the certificates were issued for namespace ${set.namespace}, not ${namespace}`);
  }
  return [
    secret('nova-ca', namespace, { 'ca.crt': set.clusterCA.certPem, 'ca.key': set.clusterCA.keyPem }),
    secret('nova-etcd-ca', namespace, { 'ca.crt': set.etcdCA.certPem, 'ca.key': set.etcdCA.keyPem }),
    secret('nova-front-proxy-ca', namespace, { 'ca.crt': set.frontProxyCA.certPem, 'ca.key': set.frontProxyCA.keyPem }),
    secret('nova-apiserver-certs', namespace, apiserverData(set)),
    secret('nova-etcd-certs', namespace, etcdData(set)),
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

/** The etcd members' certificates and keys from `nova-etcd-certs`' data keys (`etcd-<i>-<role>.<crt|key>`). */
function etcdMembers(etcd: Record<string, string>): NonNullable<PartialCertSet['etcd']> {
  const members: NonNullable<PartialCertSet['etcd']> = [];
  for (const key of Object.keys(etcd)) {
    const m = /^etcd-(\d+)-(server|peer)\.(crt|key)$/.exec(key);
    if (!m) continue;
    const i = Number(m[1]);
    const role = m[2] as 'server' | 'peer';
    if (i > 99) continue;
    members[i] ??= {};
    const member = members[i]!;
    member[role] ??= {};
    member[role][m[3] === 'crt' ? 'certPem' : 'keyPem'] = etcd[key];
  }
  return members;
}

function byName(secrets: Iterable<SecretLike | undefined | null>): (name: string) => Record<string, string> {
  const map = new Map<string, Record<string, string>>();
  for (const s of secrets) {
    const name = s?.metadata?.name;
    if (name && !map.has(name)) map.set(name, decodedData(s));
  }
  return (name) => map.get(name) ?? {};
}

/**
 * The certificate set as far as the given Secrets hold it (as read from the hosting cluster):
 * Secrets or data keys that are missing are left out, kubeconfigs that do not parse count as
 * missing. Values are taken from `data` (base64) and, failing that, `stringData`. Pass the result
 * to `generateCertSet` as `existing`.
 */
export function certSetFromSecrets(secrets: Iterable<SecretLike | undefined | null>): PartialCertSet {
  const get = byName(secrets);
  // In CERT_SECRET_NAMES order.
  const [ca, etcdCa, fpCa, api, etcd, cm, sched, admin, agent] = CERT_SECRET_NAMES.map(get) as Record<string, string>[];

  const out: PartialCertSet = {};
  const assign = <K extends keyof PartialCertSet>(k: K, v: PartialCertSet[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  assign('clusterCA', caFrom([ca!['ca.crt'], cm!['ca.crt'], api!['ca.crt']], [ca!['ca.key'], cm!['ca.key']]));
  assign('etcdCA', caFrom([etcdCa!['ca.crt'], etcd!['ca.crt'], api!['etcd-ca.crt']], [etcdCa!['ca.key']]));
  assign('frontProxyCA', caFrom([fpCa!['ca.crt'], api!['front-proxy-ca.crt']], [fpCa!['ca.key']]));
  assign('apiserver', pair(api!['apiserver.crt'], api!['apiserver.key']));
  assign('apiserverEtcdClient', pair(api!['apiserver-etcd-client.crt'], api!['apiserver-etcd-client.key']));
  assign('frontProxyClient', pair(api!['front-proxy-client.crt'], api!['front-proxy-client.key']));
  const members = etcdMembers(etcd!);
  if (members.length) out.etcd = members;
  assign('controllerManager', kubeconfigClient(cm!.kubeconfig));
  assign('scheduler', kubeconfigClient(sched!.kubeconfig));
  assign('admin', pair(admin!['tls.crt'], admin!['tls.key']));
  assign('agentBootstrap', pair(agent!['tls.crt'], agent!['tls.key']));
  const saKey = api!['sa.key'] ?? cm!['sa.key'];
  const saPub = api!['sa.pub'];
  if (saKey || saPub) out.serviceAccount = { ...(saKey ? { privateKeyPem: saKey } : {}), ...(saPub ? { publicKeyPem: saPub } : {}) };
  return out;
}

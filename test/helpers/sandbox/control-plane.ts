/**
 * A minimal Nova control plane as the install creates it (one etcd member, one
 * kube-apiserver), built as plain objects for the sandbox tests: certificate Secrets, the
 * `apiserver` LoadBalancer Service, the headless `etcd` Service and StatefulSet, the
 * `apiserver` Deployment; and what a workload cluster runs to join it (the init kubeconfig
 * Secret and the nova-agent Deployment).
 */
import type {
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1CustomResourceDefinition,
  V1Deployment,
  V1EnvVar,
  V1Secret,
  V1Service,
  V1StatefulSet,
} from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { apiserverHosts as installApiserverHosts, etcdMemberHosts } from '../../../src/install/certs/index.js';
import { createAuthority, issueCertificate, keyPairPem, type Authority, type KeyMaterial } from '../../../src/kube/certs/pki.js';

export const LABELS = { 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' };
export const ETCD_IMAGE = 'registry.k8s.io/etcd:3.5.9-0';
export const APISERVER_IMAGE = 'registry.k8s.io/kube-apiserver:v1.28.4';
export const AGENT_IMAGE = 'elotl/nova-agent:v0.7.0';
const DAYS = 3650;

const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(namespace: string, name: string, data: Record<string, string>): V1Secret {
  return {
    metadata: { name, namespace, labels: LABELS },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/** The environment every control-plane container gets (names come from fieldRefs, never from manifests). */
const POD_ENV: V1EnvVar[] = [
  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
  { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
];

export interface ControlPlanePki {
  ca: Authority;
  etcdCa: Authority;
  frontProxyCa: Authority;
  /** Client certificate of `nova-admin` (O=system:masters). */
  admin: KeyMaterial;
  /** The agents' bootstrap client certificate (O=nova:agents). */
  bootstrap: KeyMaterial;
  secrets: V1Secret[];
}

/**
 * The API server serving certificate's SANs for an LB address (the install's list), plus `extra`;
 * `lbAddress` undefined leaves the address out (the install always has one: 'apiserver' stands in,
 * it is in the list anyway).
 */
export function apiserverHosts(namespace: string, lbAddress: string | undefined, extra: string[] = []): string[] {
  const installs = installApiserverHosts(namespace, { hostname: 'apiserver' });
  return [...(lbAddress ? [lbAddress] : []), ...extra, ...installs];
}

/** A serving certificate for the API server; `lbAddress` undefined leaves the LB address out. */
export function apiserverServing(
  ca: Authority,
  namespace: string,
  lbAddress: string | undefined,
  extra: string[] = [],
): Promise<KeyMaterial> {
  return issueCertificate(ca, {
    commonName: 'kube-apiserver',
    hosts: apiserverHosts(namespace, lbAddress, extra),
    usage: 'server',
    days: DAYS,
  });
}

/** The `nova-apiserver-certs` Secret with the given serving certificate. */
export function apiserverSecret(namespace: string, _pki: ControlPlanePki, serving: KeyMaterial, rest: Record<string, string>): V1Secret {
  return secret(namespace, 'nova-apiserver-certs', { ...rest, 'apiserver.crt': serving.certPem, 'apiserver.key': serving.keyPem });
}

/** Every certificate of a control plane with `members` etcd members, as the install's Secrets. */
export async function controlPlanePki(
  namespace: string,
  lbAddress: string,
  opts: { members?: number; extraHosts?: string[] } = {},
): Promise<ControlPlanePki & { apiserverRest: Record<string, string> }> {
  const members = opts.members ?? 1;
  const [ca, etcdCa, frontProxyCa] = await Promise.all([
    createAuthority('nova-ca', DAYS),
    createAuthority('nova-etcd-ca', DAYS),
    createAuthority('nova-front-proxy-ca', DAYS),
  ]);
  const [serving, etcdClient, frontProxyClient, sa, admin, bootstrap] = await Promise.all([
    apiserverServing(ca, namespace, lbAddress, opts.extraHosts),
    issueCertificate(etcdCa, { commonName: 'kube-apiserver-etcd-client', usage: 'client', days: DAYS }),
    issueCertificate(frontProxyCa, { commonName: 'front-proxy-client', usage: 'client', days: DAYS }),
    keyPairPem(),
    issueCertificate(ca, { commonName: 'nova-admin', organizations: ['system:masters'], usage: 'client', days: DAYS }),
    issueCertificate(ca, { commonName: 'nova-agent-bootstrap', organizations: ['nova:agents'], usage: 'client', days: DAYS }),
  ]);
  const etcdFiles: Record<string, string> = { 'ca.crt': etcdCa.certPem };
  for (let i = 0; i < members; i++) {
    const hosts = etcdMemberHosts(namespace, i);
    const [server, peer] = await Promise.all([
      issueCertificate(etcdCa, { commonName: `etcd-${i}`, hosts, usage: 'server+client', days: DAYS }),
      issueCertificate(etcdCa, { commonName: `etcd-${i}`, hosts, usage: 'server+client', days: DAYS }),
    ]);
    Object.assign(etcdFiles, {
      [`etcd-${i}-server.crt`]: server.certPem,
      [`etcd-${i}-server.key`]: server.keyPem,
      [`etcd-${i}-peer.crt`]: peer.certPem,
      [`etcd-${i}-peer.key`]: peer.keyPem,
    });
  }
  const apiserverRest = {
    'ca.crt': ca.certPem,
    'apiserver-etcd-client.crt': etcdClient.certPem,
    'apiserver-etcd-client.key': etcdClient.keyPem,
    'etcd-ca.crt': etcdCa.certPem,
    'front-proxy-ca.crt': frontProxyCa.certPem,
    'front-proxy-client.crt': frontProxyClient.certPem,
    'front-proxy-client.key': frontProxyClient.keyPem,
    'sa.pub': sa.publicKeyPem,
    'sa.key': sa.privateKeyPem,
  };
  const pki = { ca, etcdCa, frontProxyCa, admin, bootstrap, secrets: [] as V1Secret[] };
  pki.secrets = [
    secret(namespace, 'nova-ca', { 'ca.crt': ca.certPem, 'ca.key': ca.keyPem }),
    secret(namespace, 'nova-etcd-ca', { 'ca.crt': etcdCa.certPem, 'ca.key': etcdCa.keyPem }),
    secret(namespace, 'nova-front-proxy-ca', { 'ca.crt': frontProxyCa.certPem, 'ca.key': frontProxyCa.keyPem }),
    apiserverSecret(namespace, pki, serving, apiserverRest),
    secret(namespace, 'nova-etcd-certs', etcdFiles),
    secret(namespace, 'nova-admin', { 'tls.crt': admin.certPem, 'tls.key': admin.keyPem }),
    secret(namespace, 'nova-agent-bootstrap', { 'tls.crt': bootstrap.certPem, 'tls.key': bootstrap.keyPem }),
  ];
  return { ...pki, apiserverRest };
}

/** The `apiserver` LoadBalancer Service (443 → 6443); `annotations` e.g. ask the sandbox for a hostname. */
export function apiserverService(namespace: string, name = 'apiserver', annotations: Record<string, string> = {}): V1Service {
  return {
    metadata: { name, namespace, labels: LABELS, annotations },
    spec: {
      type: 'LoadBalancer',
      selector: { component: 'apiserver' },
      ports: [{ name: 'https', port: 443, targetPort: 6443, protocol: 'TCP' }],
    },
  };
}

export function etcdService(namespace: string): V1Service {
  return {
    metadata: { name: 'etcd', namespace, labels: { ...LABELS, app: 'etcd' } },
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { app: 'etcd' },
      ports: [
        { name: 'client', port: 2379, targetPort: 2379 },
        { name: 'peer', port: 2380, targetPort: 2380 },
      ],
    },
  };
}

export function etcdStatefulSet(namespace: string, replicas = 1): V1StatefulSet {
  const labels = { ...LABELS, app: 'etcd' };
  const members = Array.from({ length: replicas }, (_, i) => `etcd-${i}=https://etcd-${i}.etcd.$(POD_NAMESPACE).svc:2380`).join(',');
  const pki = (f: string) => `/etc/etcd/pki/${f}`;
  return {
    metadata: { name: 'etcd', namespace, labels },
    spec: {
      serviceName: 'etcd',
      replicas,
      podManagementPolicy: 'Parallel',
      selector: { matchLabels: { app: 'etcd' } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'etcd',
              image: ETCD_IMAGE,
              command: ['etcd'],
              args: [
                '--name=$(POD_NAME)',
                '--data-dir=/var/lib/etcd',
                '--listen-client-urls=https://0.0.0.0:2379',
                '--advertise-client-urls=https://$(POD_NAME).etcd.$(POD_NAMESPACE).svc:2379',
                '--listen-peer-urls=https://0.0.0.0:2380',
                '--initial-advertise-peer-urls=https://$(POD_NAME).etcd.$(POD_NAMESPACE).svc:2380',
                `--initial-cluster=${members}`,
                '--initial-cluster-state=new',
                '--initial-cluster-token=nova-etcd',
                '--listen-metrics-urls=http://0.0.0.0:2381',
                '--client-cert-auth=true',
                `--trusted-ca-file=${pki('ca.crt')}`,
                `--cert-file=${pki('$(POD_NAME)-server.crt')}`,
                `--key-file=${pki('$(POD_NAME)-server.key')}`,
                '--peer-client-cert-auth=true',
                `--peer-trusted-ca-file=${pki('ca.crt')}`,
                `--peer-cert-file=${pki('$(POD_NAME)-peer.crt')}`,
                `--peer-key-file=${pki('$(POD_NAME)-peer.key')}`,
              ],
              env: POD_ENV,
              ports: [
                { name: 'client', containerPort: 2379 },
                { name: 'peer', containerPort: 2380 },
                { name: 'metrics', containerPort: 2381 },
              ],
              readinessProbe: { httpGet: { path: '/health', port: 2381, scheme: 'HTTP' }, periodSeconds: 5, failureThreshold: 3 },
              volumeMounts: [
                { name: 'data', mountPath: '/var/lib/etcd' },
                { name: 'pki', mountPath: '/etc/etcd/pki', readOnly: true },
              ],
            },
          ],
          volumes: [{ name: 'pki', secret: { secretName: 'nova-etcd-certs' } }],
        },
      },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
    },
  };
}

export function apiserverDeployment(namespace: string, replicas = 1): V1Deployment {
  const labels = { ...LABELS, component: 'apiserver' };
  const pki = (f: string) => `/etc/nova/pki/${f}`;
  return {
    metadata: { name: 'apiserver', namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: { component: 'apiserver' } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'kube-apiserver',
              image: APISERVER_IMAGE,
              command: ['kube-apiserver'],
              args: [
                '--advertise-address=$(POD_IP)',
                '--bind-address=0.0.0.0',
                '--secure-port=6443',
                '--etcd-servers=https://etcd.$(POD_NAMESPACE).svc:2379',
                `--etcd-cafile=${pki('etcd-ca.crt')}`,
                `--etcd-certfile=${pki('apiserver-etcd-client.crt')}`,
                `--etcd-keyfile=${pki('apiserver-etcd-client.key')}`,
                `--client-ca-file=${pki('ca.crt')}`,
                `--tls-cert-file=${pki('apiserver.crt')}`,
                `--tls-private-key-file=${pki('apiserver.key')}`,
                `--service-account-key-file=${pki('sa.pub')}`,
                `--service-account-signing-key-file=${pki('sa.key')}`,
                '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
                '--service-cluster-ip-range=10.96.0.0/12',
                '--authorization-mode=Node,RBAC',
                '--enable-admission-plugins=NodeRestriction',
                '--allow-privileged=true',
                `--requestheader-client-ca-file=${pki('front-proxy-ca.crt')}`,
                '--requestheader-allowed-names=front-proxy-client',
                '--requestheader-extra-headers-prefix=X-Remote-Extra-',
                '--requestheader-group-headers=X-Remote-Group',
                '--requestheader-username-headers=X-Remote-User',
                `--proxy-client-cert-file=${pki('front-proxy-client.crt')}`,
                `--proxy-client-key-file=${pki('front-proxy-client.key')}`,
              ],
              env: POD_ENV,
              ports: [{ name: 'https', containerPort: 6443 }],
              readinessProbe: { httpGet: { path: '/readyz', port: 6443, scheme: 'HTTPS' }, periodSeconds: 5, failureThreshold: 3 },
              volumeMounts: [{ name: 'pki', mountPath: '/etc/nova/pki', readOnly: true }],
            },
          ],
          volumes: [{ name: 'pki', secret: { secretName: 'nova-apiserver-certs' } }],
        },
      },
    },
  };
}

/** The Cluster CRD as the install defines it (cluster-scoped, status subresource). */
export const CLUSTER_CRD: V1CustomResourceDefinition = {
  metadata: { name: 'clusters.cluster.elotl.co' },
  spec: {
    group: 'cluster.elotl.co',
    scope: 'Cluster',
    names: { plural: 'clusters', singular: 'cluster', kind: 'Cluster', listKind: 'ClusterList' },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
        subresources: { status: {} },
      },
    ],
  },
};

/** The agents' least-privilege access in the control plane, bound to Group `nova:agents`. */
export function agentRbac(): { role: V1ClusterRole; binding: V1ClusterRoleBinding } {
  return {
    role: {
      metadata: { name: 'nova-agent', labels: LABELS },
      rules: [
        {
          apiGroups: ['cluster.elotl.co'],
          resources: ['clusters', 'clusters/status'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
        },
        { apiGroups: ['policy.elotl.co'], resources: ['schedulepolicies', 'schedulegroups'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    binding: {
      metadata: { name: 'nova-agent', labels: LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nova-agent' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nova:agents' }],
    },
  };
}

/** A kubeconfig with embedded CA and client certificate (what `nova-cluster-init-kubeconfig` holds). */
export function kubeconfigText(server: string, caPem: string, client: KeyMaterial, context = 'nova'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: context, cluster: { server, 'certificate-authority-data': b64(caPem) } }],
    users: [{ name: `${context}-agent`, user: { 'client-certificate-data': b64(client.certPem), 'client-key-data': b64(client.keyPem) } }],
    contexts: [{ name: context, context: { cluster: context, user: `${context}-agent` } }],
    'current-context': context,
  });
}

export function initKubeconfigSecret(namespace: string, kubeconfig: string): V1Secret {
  return secret(namespace, 'nova-cluster-init-kubeconfig', { kubeconfig });
}

/** The nova-agent Deployment of a workload cluster (its init kubeconfig Secret in the same namespace). */
export function agentDeployment(namespace: string, clusterName: string): V1Deployment {
  const labels = { ...LABELS, app: 'nova-agent' };
  return {
    metadata: { name: 'nova-agent', namespace, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'nova-agent' } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'nova-agent',
              image: AGENT_IMAGE,
              args: [`--cluster-name=${clusterName}`, '--kubeconfig=/etc/nova/init/kubeconfig'],
              env: POD_ENV,
              volumeMounts: [{ name: 'init-kubeconfig', mountPath: '/etc/nova/init', readOnly: true }],
            },
          ],
          volumes: [{ name: 'init-kubeconfig', secret: { secretName: 'nova-cluster-init-kubeconfig' } }],
        },
      },
    },
  };
}

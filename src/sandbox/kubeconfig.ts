import { RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { makeClient, statusCode } from '../kube/transport/client.js';
import type { ClusterSpec } from './cluster.js';
import { VIEWER_USER, b64, type ClusterAccess } from './credentials.js';

/** The people's access to the sandbox: the kubeconfig files and the read-only user's permissions. */

export const VIEWER_ROLE = 'fleetdeck:read-only';

const READ_ONLY_RULES = [
  {
    apiGroups: [''],
    resources: [
      'nodes',
      'pods',
      'pods/log',
      'services',
      'endpoints',
      'events',
      'namespaces',
      'configmaps',
      'persistentvolumes',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'serviceaccounts',
      'limitranges',
      'resourcequotas',
    ],
    verbs: ['get', 'list', 'watch'],
  },
  {
    apiGroups: [
      'apps',
      'batch',
      'policy',
      'autoscaling',
      'storage.k8s.io',
      'networking.k8s.io',
      'apiextensions.k8s.io',
      'certificates.k8s.io',
      'coordination.k8s.io',
      'discovery.k8s.io',
      'events.k8s.io',
      'scheduling.k8s.io',
      'node.k8s.io',
      'rbac.authorization.k8s.io',
      // The simulated OpenEBS objects (sim/openebs-crds.ts).
      'local.openebs.io',
      'openebs.io',
    ],
    resources: ['*'],
    verbs: ['get', 'list', 'watch'],
  },
];

/** The read-only user: get/list/watch on everything but Secrets. Idempotent. */
export async function ensureReadOnlyRole(kc: KubeConfig): Promise<void> {
  const rbac = makeClient(kc, RbacAuthorizationV1Api);
  const ignoreExists = (err: unknown) => {
    if (statusCode(err) !== 409) throw err;
  };
  await rbac.createClusterRole({ body: { metadata: { name: VIEWER_ROLE }, rules: READ_ONLY_RULES } }).catch(ignoreExists);
  await rbac
    .createClusterRoleBinding({
      body: {
        metadata: { name: VIEWER_ROLE },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: VIEWER_ROLE },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: VIEWER_USER }],
      },
    })
    .catch(ignoreExists);
}

/** A kubeconfig with one context per cluster; `as` picks the admin or the read-only user. */
export function kubeconfigYaml(clusters: { spec: ClusterSpec; access: ClusterAccess }[], as: 'admin' | 'viewer'): string {
  const users = clusters.flatMap(({ spec, access }) => [
    {
      name: `${spec.context}-admin`,
      user: { 'client-certificate-data': b64(access.admin.certPem), 'client-key-data': b64(access.admin.keyPem) },
    },
    {
      name: `${spec.context}-viewer`,
      user: { 'client-certificate-data': b64(access.viewer.certPem), 'client-key-data': b64(access.viewer.keyPem) },
    },
  ]);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: clusters.map(({ spec, access }) => ({
      name: spec.context,
      cluster: { server: access.server, 'certificate-authority-data': b64(access.caPem) },
    })),
    users,
    contexts: clusters.map(({ spec }) => ({ name: spec.context, context: { cluster: spec.context, user: `${spec.context}-${as}` } })),
    'current-context': clusters[0]?.spec.context ?? '',
  });
}

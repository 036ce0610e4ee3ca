/**
 * The kubeconfigs built from the certificate set (the agents' bootstrap, the administrator's,
 * the controller-manager's and the scheduler's), and the client certificate read back from one.
 * Every kubeconfig here embeds a private key: never print one.
 */
import { stringify as stringifyYaml } from 'yaml';
import { kubeconfigCurrentUser } from '../../kube/certs/cert-sources.js';
import { apiserverUrl, inClusterApiserverUrl } from './specs.js';
import type { CertSet, KeyMaterial } from './types.js';

export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface KubeconfigParts {
  clusterName: string;
  userName: string;
  contextName: string;
  server: string;
  caPem: string;
  client: KeyMaterial;
}

function kubeconfigYaml(p: KubeconfigParts): string {
  return stringifyYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: p.clusterName, cluster: { server: p.server, 'certificate-authority-data': b64(p.caPem) } }],
    users: [{ name: p.userName, user: { 'client-certificate-data': b64(p.client.certPem), 'client-key-data': b64(p.client.keyPem) } }],
    contexts: [{ name: p.contextName, context: { cluster: p.clusterName, user: p.userName } }],
    'current-context': p.contextName,
    preferences: {},
  });
}

/**
 * The agents' bootstrap kubeconfig (Secret `nova-cluster-init-kubeconfig`, key `kubeconfig`):
 * `serverUrl` (the LoadBalancer address, see {@link apiserverUrl}), the cluster CA and the
 * `nova-agent-bootstrap` client certificate and key, all embedded. Contains a private key.
 */
export function initKubeconfig(set: CertSet, serverUrl: string): string {
  return kubeconfigYaml({
    clusterName: 'nova',
    userName: 'nova-agent-bootstrap',
    contextName: 'nova',
    server: serverUrl,
    caPem: set.clusterCA.certPem,
    client: set.agentBootstrap,
  });
}

/**
 * The administrator's kubeconfig for the control plane: context, cluster `contextName` and user
 * `<contextName>-admin` with the `nova-admin` (system:masters) client certificate and key and the
 * cluster CA embedded. Contains a private key: write it with mode 0600.
 */
export function adminKubeconfig(set: CertSet, serverUrl: string, contextName = 'nova'): string {
  return kubeconfigYaml({
    clusterName: contextName,
    userName: `${contextName}-admin`,
    contextName,
    server: serverUrl,
    caPem: set.clusterCA.certPem,
    client: set.admin,
  });
}

/** The kubeconfig of a control-plane component, pointing at the API server inside the hosting cluster. */
export function componentKubeconfig(set: CertSet, userName: string, client: KeyMaterial): string {
  return kubeconfigYaml({
    clusterName: 'nova',
    userName,
    contextName: 'nova',
    server: inClusterApiserverUrl(set.namespace),
    caPem: set.clusterCA.certPem,
    client,
  });
}

/** The client certificate and key of a kubeconfig's current user (or its only user). */
export function kubeconfigClient(text: string | undefined): Partial<KeyMaterial> | undefined {
  if (!text) return undefined;
  const user = kubeconfigCurrentUser(text);
  const field = (k: string) => (typeof user?.[k] === 'string' ? Buffer.from(user[k] as string, 'base64').toString('utf8') : undefined);
  const certPem = field('client-certificate-data');
  const keyPem = field('client-key-data');
  return certPem || keyPem ? { ...(certPem ? { certPem } : {}), ...(keyPem ? { keyPem } : {}) } : undefined;
}

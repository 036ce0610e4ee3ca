/**
 * CSRs on a sandbox cluster for the integration tests: requests made as other users
 * (impersonation), a ClusterRoleBinding that keeps the controller-manager from approving them,
 * and cleanup. One fixture per test file (its own name prefix).
 */
import {
  CertificatesV1Api,
  CoreV1Api,
  KubeConfig,
  RbacAuthorizationV1Api,
  type V1CertificateSigningRequest,
} from '@kubernetes/client-node';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import {
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  makeCsrPem,
  nodeAddressesOf,
  type CsrSummary,
} from '../../../src/kube/csr/index.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';

export interface CsrFixture {
  /** The name prefix of this file's objects. */
  P: string;
  REQ_A: string;
  REQ_B: string;
  kc: KubeConfig;
  csrApi: CertificatesV1Api;
  nodeName: string;
  nodeAddrs: string[];
  /** The same context acting as another user (Impersonate-User): the CSR's spec.username is that user. */
  as(user: string): KubeConfig;
  clientCsr(name: string, who: KubeConfig, node?: string): Promise<V1CertificateSigningRequest>;
  servingCsr(name: string, who: KubeConfig, dnsNames: string[], ipAddresses: string[]): Promise<V1CertificateSigningRequest>;
  /** Deletes the CSRs made and the binding. */
  cleanup(): Promise<void>;
}

export function findCsr(list: CsrSummary[], name: string): CsrSummary {
  const c = list.find((x) => x.name === name);
  if (!c) throw new Error(`${name} not listed`);
  return c;
}

/** Reads a node with addresses and binds the two bootstrap requesters (and that node) to system:node-bootstrapper. */
export async function csrFixture(kubeconfig: string, context: string, prefix: string): Promise<CsrFixture> {
  const id = Math.random().toString(36).slice(2, 8);
  const P = `${prefix}-${id}`;
  const REQ_A = `${P}-bootstrap-a`;
  const REQ_B = `${P}-bootstrap-b`;
  const BINDING = `${P}-bootstrappers`;
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, context);
  const csrApi = makeClient(kc, CertificatesV1Api);
  const created: string[] = [];
  const nodes = await makeClient(kc, CoreV1Api).listNode();
  const node = nodes.items.find((n) => nodeAddressesOf(n).length > 0);
  if (!node) throw new Error('no node with addresses in the sandbox');
  const nodeName = node.metadata!.name!;
  const nodeAddrs = nodeAddressesOf(node);
  const as = (user: string): KubeConfig => {
    const u = kc.getCurrentUser()!;
    const out = new KubeConfig();
    out.loadFromOptions({
      clusters: kc.getClusters(),
      users: [{ ...u, impersonateUser: user }],
      contexts: kc.getContexts(),
      currentContext: kc.getCurrentContext(),
    });
    return out;
  };
  const createCsr = async (
    name: string,
    who: KubeConfig,
    signerName: string,
    usages: string[],
    subject: Parameters<typeof makeCsrPem>[0],
  ) => {
    const { csrPem } = await makeCsrPem(subject);
    created.push(name);
    return makeClient(who, CertificatesV1Api).createCertificateSigningRequest({
      body: { metadata: { name }, spec: { request: Buffer.from(csrPem).toString('base64'), signerName, usages } },
    });
  };
  // Requesters without the nodeclient permission (as bootstrap tokens have it): the
  // controller-manager's auto-approver leaves their kubelet client CSRs pending.
  await makeClient(kc, RbacAuthorizationV1Api).createClusterRoleBinding({
    body: {
      metadata: { name: BINDING },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [REQ_A, REQ_B, `system:node:${nodeName}`].map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name })),
    },
  });
  return {
    P,
    REQ_A,
    REQ_B,
    kc,
    csrApi,
    nodeName,
    nodeAddrs,
    as,
    clientCsr: (name, who, node = nodeName) =>
      createCsr(name, who, KUBELET_CLIENT_SIGNER, ['digital signature', 'key encipherment', 'client auth'], {
        commonName: `system:node:${node}`,
        organizations: ['system:nodes'],
      }),
    servingCsr: (name, who, dnsNames, ipAddresses) =>
      createCsr(name, who, KUBELET_SERVING_SIGNER, ['digital signature', 'key encipherment', 'server auth'], {
        commonName: `system:node:${nodeName}`,
        organizations: ['system:nodes'],
        dnsNames,
        ipAddresses,
      }),
    cleanup: async () => {
      for (const name of created) {
        await csrApi.deleteCertificateSigningRequest({ name }).catch((err: unknown) => {
          if (statusCode(err) !== 404) throw err;
        });
      }
      await makeClient(kc, RbacAuthorizationV1Api)
        .deleteClusterRoleBinding({ name: BINDING })
        .catch(() => {});
    },
  };
}

import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { renewPlanFrom } from '../../../src/day2/renew/plan.js';
import { selectLeaves } from '../../../src/day2/renew/select.js';
import { generateCertSet } from '../../../src/install/certs/generate.js';
import { CERT_SECRET_NAMES, leafSpecs } from '../../../src/install/certs/specs.js';
import type { CertSet } from '../../../src/install/certs/types.js';

const DAY = 86_400_000;
const address = { ip: '10.0.0.1' };
let set: CertSet;

beforeAll(async () => {
  set = (await generateCertSet({ namespace: 'elotl', apiserverAddress: address, etcdMembers: 1, validityDays: 365 })).set;
});

const base = (names: string[], days: number, now = Date.now()) => {
  const leaves = selectLeaves(names, leafSpecs('elotl', address, 1));
  return renewPlanFrom({
    namespace: 'elotl',
    found: set,
    leaves,
    now,
    days,
    pods: { etcd: ['etcd-0'], apiserver: ['apiserver-a'], 'controller-manager': ['cm-a'], 'nova-scheduler': ['s-a'] },
    kubeconfigFiles: ['/cfg/nova.kubeconfig', '/home/u/.kube/config'],
    controlPlaneContext: 'nova',
    workloads: ['w1', 'w2'],
  });
};

describe('renewPlanFrom', () => {
  it('all: every leaf with old and new not-after, every Secret, the four components in restart order, kubeconfigs and agents', () => {
    const now = Date.now();
    const plan = base(['all'], 30, now);
    expect(plan.certs.map((c) => c.name)).toEqual([
      'apiserver',
      'apiserver-etcd-client',
      'front-proxy-client',
      'etcd-0-server',
      'etcd-0-peer',
      'controller-manager',
      'scheduler',
      'admin',
      'agent-bootstrap',
    ]);
    const api = plan.certs[0]!;
    expect(api.notAfter).toBe(new X509Certificate(set.apiserver.certPem).validToDate.toISOString());
    expect(api.newNotAfter).toBe(new Date(now + 30 * DAY).toISOString());
    expect(api.cappedByCa).toBe(false);
    // Every Secret but the three CAs', in the install's order.
    expect(plan.secrets).toEqual(CERT_SECRET_NAMES.slice(3));
    expect(plan.restarts.map((r) => r.component)).toEqual(['etcd', 'apiserver', 'controller-manager', 'nova-scheduler']);
    expect(plan.restarts[1]?.pods).toEqual(['apiserver-a']);
    expect(plan.kubeconfigs).toEqual(['/cfg/nova.kubeconfig', '/home/u/.kube/config']);
    expect(plan.initKubeconfigs).toEqual(['nova', 'w1', 'w2']);
    expect(plan.agents).toEqual(['w1', 'w2']);
    expect(JSON.stringify(plan)).not.toMatch(/PRIVATE KEY/);
  });

  it('a leaf never outlives its CA: the new not-after is the CA one, said so', () => {
    const plan = base(['admin'], 3650);
    const ca = new X509Certificate(set.clusterCA.certPem).validToDate.toISOString();
    expect(plan.certs).toEqual([expect.objectContaining({ name: 'admin', newNotAfter: ca, cappedByCa: true, secret: 'nova-admin' })]);
  });

  it('only what the chosen certificates need: admin alone restarts nothing and touches no agent', () => {
    const plan = base(['admin'], 30);
    expect(plan.restarts).toEqual([]);
    expect(plan.initKubeconfigs).toEqual([]);
    expect(plan.agents).toEqual([]);
    expect(plan.kubeconfigs).toHaveLength(2);
    const etcd = base(['etcd-0-peer'], 30);
    expect(etcd.restarts).toEqual([{ component: 'etcd', pods: ['etcd-0'] }]);
    expect(etcd.kubeconfigs).toEqual([]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { Applier, type Manifest } from '../../src/kube/api/apply.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { sharedRbac, type Subject } from '../../src/install/shared-rbac.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const name = `shared-rbac-${process.pid}`;
const kc = () => configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, 'kind-workload-1');
const sa = (namespace: string): Subject => ({ kind: 'ServiceAccount', name: 'nova-agent', namespace });
const role: Manifest = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name },
  rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }],
} as Manifest;
const binding = (subjects: Subject[]): Manifest =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects,
  }) as Manifest;

describe('the shared agent RBAC on uninstall (sandbox)', () => {
  const a = new Applier(kc());
  afterAll(async () => {
    await a.delete(binding([]));
    await a.delete(role);
  });

  it('keeps the objects while another install’s agent is bound, taking out only this one’s subject; removes them with the last', async () => {
    // Given two installs (namespaces a and b) bound through the same names
    await a.apply(role);
    await a.apply(binding([sa(`${name}-a`), sa(`${name}-b`)]));

    // When install a is uninstalled: nothing to delete, b's subject alone remains
    const first = await sharedRbac(a, [role, binding([sa(`${name}-a`)])], `${name}-a`);
    expect(first.remove).toEqual([]);
    expect(first.kept).toContain(`ClusterRoleBinding ${name} kept`);
    const live = await a.read<Manifest & { subjects?: Subject[] }>(binding([]));
    expect(live?.subjects).toEqual([sa(`${name}-b`)]);

    // When install b is uninstalled: both go
    const last = await sharedRbac(a, [role, binding([sa(`${name}-b`)])], `${name}-b`);
    expect(last.remove.map((o) => o.kind).sort()).toEqual(['ClusterRole', 'ClusterRoleBinding']);
    expect(last.kept).toBe('');
  });
});

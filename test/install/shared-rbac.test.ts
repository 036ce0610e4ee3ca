import { describe, expect, it } from 'vitest';
import { bindingFate, isSharedRbac } from '../../src/install/shared-rbac.js';

const sa = (namespace: string) => ({ kind: 'ServiceAccount', name: 'nova-agent', namespace });

describe('the fate of the shared nova-agent ClusterRoleBinding on uninstall', () => {
  it('is deleted when only this install’s agent is bound (or nobody)', () => {
    expect(bindingFate([sa('nova')], 'nova')).toEqual({ fate: 'delete' });
    expect(bindingFate([], 'nova')).toEqual({ fate: 'delete' });
    expect(bindingFate(undefined, 'nova')).toEqual({ fate: 'delete' });
  });

  it('is kept without this install’s subject while another namespace’s agent is bound', () => {
    expect(bindingFate([sa('nova'), sa('nova-b')], 'nova')).toEqual({ fate: 'keep', subjects: [sa('nova-b')], changed: true });
  });

  it('is kept unchanged when this install’s subject is not in it', () => {
    expect(bindingFate([sa('nova-b')], 'nova')).toEqual({ fate: 'keep', subjects: [sa('nova-b')], changed: false });
  });

  it('keeps a user or group bound to the same role', () => {
    const user = { kind: 'User', name: 'ops', apiGroup: 'rbac.authorization.k8s.io' };
    expect(bindingFate([sa('nova'), user], 'nova')).toEqual({ fate: 'keep', subjects: [user], changed: true });
  });

  it('concerns only the cluster-wide RBAC kinds', () => {
    expect(['ClusterRole', 'ClusterRoleBinding', 'Role', 'ServiceAccount'].map(isSharedRbac)).toEqual([true, true, false, false]);
  });
});

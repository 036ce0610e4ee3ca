import { describe, expect, it } from 'vitest';
import { missingPermission, withMissingPermission } from '../../../src/kube/transport/forbidden.js';

const RBAC_DENIAL =
  'csr-aaa11: not approved: HTTP 403: certificatesigningrequests.certificates.k8s.io "csr-aaa11" is forbidden: User "ops-readonly" cannot update resource "certificatesigningrequests/approval" in API group "certificates.k8s.io" at the cluster scope';

describe('missingPermission', () => {
  it("names the verb and resource RBAC refused, with the namespace when it is one's", () => {
    expect(missingPermission(RBAC_DENIAL)).toBe('needs update on certificatesigningrequests/approval');
    expect(missingPermission('pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "elotl"')).toBe(
      'needs list on pods in namespace elotl',
    );
  });

  it('names the signer the approval plugin refused', () => {
    expect(
      missingPermission(
        'certificatesigningrequests.certificates.k8s.io "csr-1" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kubelet-serving"',
      ),
    ).toBe('needs approve on signers kubernetes.io/kubelet-serving');
  });

  it('says nothing of a message that names no permission', () => {
    expect(missingPermission('HTTP 403: forbidden')).toBeUndefined();
  });
});

describe('withMissingPermission', () => {
  it('adds what is missing after a 403, once', () => {
    const line = withMissingPermission(RBAC_DENIAL);
    expect(line).toBe(`${RBAC_DENIAL} (needs update on certificatesigningrequests/approval)`);
    expect(withMissingPermission(line)).toBe(line);
  });

  it('leaves other errors as they are', () => {
    const timeout = 'csr-1: not approved: timed out (cannot update resource "x")';
    expect(withMissingPermission(timeout)).toBe(timeout);
  });
});

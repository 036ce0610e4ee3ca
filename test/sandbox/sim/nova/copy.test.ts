import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../../../src/kube/api/api-resources.js';
import { COPY_HASH, copyOf } from '../../../../src/sandbox/sim/nova/copy.js';

const service: ApiObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'u1',
    resourceVersion: '7',
    labels: { app: 'web', 'nova.elotl.co/target-cluster': 'w1' },
    annotations: { 'status.nova.elotl.co/w1': '{}', note: 'kept' },
  },
  spec: { selector: { app: 'web' }, clusterIP: '10.0.0.7', clusterIPs: ['10.0.0.7'], ports: [{ port: 80 }] },
  status: { loadBalancer: {} },
};

describe('the copy an agent keeps', () => {
  it('leaves out what the control plane owns and the scheduler’s marks, labelled for its agent', () => {
    const copy = copyOf(service, undefined, undefined, 'elotl');
    expect(copy.metadata).toEqual({
      name: 'web',
      namespace: 'shop',
      labels: { app: 'web', 'nova.elotl.co/managed-by-agent': 'elotl' },
      annotations: { note: 'kept', [COPY_HASH]: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    expect(copy.spec).toEqual({ selector: { app: 'web' }, ports: [{ port: 80 }] });
    expect(copy.status).toBeUndefined();
  });

  it('a ServiceAccount without the control plane’s token Secrets (its cluster makes its own)', () => {
    const sa: ApiObject = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'runner', namespace: 'shop' },
      secrets: [{ name: 'runner-token-abcde' }],
      imagePullSecrets: [{ name: 'registry' }],
    };
    const copy = copyOf(sa, undefined, undefined, 'elotl');
    expect(copy.secrets).toBeUndefined();
    expect(copy.imagePullSecrets).toEqual([{ name: 'registry' }]);
  });

  it('a share’s replicas, and the same hash for the same source', () => {
    const d: ApiObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 10 },
    };
    const a = copyOf(d, { cluster: 'w1', replicas: 3 }, undefined, 'elotl');
    expect((a.spec as { replicas: number }).replicas).toBe(3);
    expect(copyOf(d, { cluster: 'w1', replicas: 3 }, undefined, 'elotl').metadata.annotations).toEqual(a.metadata.annotations);
    expect(copyOf(d, { cluster: 'w1', replicas: 7 }, undefined, 'elotl').metadata.annotations).not.toEqual(a.metadata.annotations);
  });
});

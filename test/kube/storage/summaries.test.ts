import { describe, expect, it } from 'vitest';
import { BLOCKDEVICE, LVMNODE, claimOf, missingLine, storageClassOf, volumeOf } from '../../../src/kube/storage/summaries.js';

const GiB = 2 ** 30;

describe('storage objects as summaries', () => {
  it('marks the default StorageClass by the GA or the beta annotation', () => {
    const sc = (name: string, annotations: Record<string, string>) => storageClassOf({ metadata: { name, annotations }, provisioner: 'p' });
    expect(sc('ga', { 'storageclass.kubernetes.io/is-default-class': 'true' }).default).toBe(true);
    expect(sc('beta', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }).default).toBe(true);
    expect(sc('no', { 'storageclass.kubernetes.io/is-default-class': 'false' })).toEqual({ name: 'no', provisioner: 'p', default: false });
  });

  it('reads volumes (capacity, claim, pinned node) and claims (requested, bound volume)', () => {
    expect(
      volumeOf({
        metadata: { name: 'pvc-1' },
        spec: {
          capacity: { storage: '2Gi' },
          storageClassName: 'standard',
          claimRef: { namespace: 'ns', name: 'data' },
          nodeAffinity: {
            required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }] }] },
          },
        },
        status: { phase: 'Bound' },
      }),
    ).toEqual({ name: 'pvc-1', capacityBytes: 2 * GiB, storageClass: 'standard', claim: 'ns/data', phase: 'Bound', node: 'n1' });
    expect(
      claimOf({
        metadata: { namespace: 'ns', name: 'data' },
        spec: { resources: { requests: { storage: '1500M' } }, storageClassName: 'standard', volumeName: 'pvc-1' },
        status: { phase: 'Bound', capacity: { storage: '2Gi' } },
      }),
    ).toEqual({
      namespace: 'ns',
      name: 'data',
      requestedBytes: 1.5e9,
      storageClass: 'standard',
      phase: 'Bound',
      volume: 'pvc-1',
      capacityBytes: 2 * GiB,
    });
    expect(claimOf({ metadata: { namespace: 'ns', name: 'p' } })).toEqual({
      namespace: 'ns',
      name: 'p',
      requestedBytes: 0,
      phase: 'Pending',
    });
  });

  it('says which source is missing: not installed, or forbidden with the permission', () => {
    expect(missingLine(LVMNODE, 404, 'HTTP 404')).toBe('LVMNode (local.openebs.io) not installed');
    expect(missingLine(BLOCKDEVICE, 403, 'HTTP 403: …')).toBe(
      'BlockDevice (openebs.io): forbidden, needs list on blockdevices.openebs.io in all namespaces',
    );
    expect(missingLine({ kind: 'PersistentVolumes', resource: 'persistentvolumes' }, 403, '')).toBe(
      'PersistentVolumes: forbidden, needs list on persistentvolumes in all namespaces',
    );
    expect(missingLine({ kind: 'Nodes', resource: 'nodes' }, 500, 'HTTP 500: etcd down')).toBe('Nodes: HTTP 500: etcd down');
  });
});

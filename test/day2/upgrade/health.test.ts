import { describe, expect, it } from 'vitest';
import { badPod } from '../../../src/day2/upgrade/health.js';

const pod = (name: string, image: string, reason?: string, deleting = false) => ({
  metadata: { name, ...(deleting ? { deletionTimestamp: '2026-11-26T10:00:00Z' } : {}) },
  spec: { containers: [{ name: 'c', image }] },
  status: { containerStatuses: [{ name: 'c', state: reason ? { waiting: { reason } } : {} }] },
});

describe('badPod (the health gate fails at once on a pod of the new spec that cannot start)', () => {
  it('names a pod of the current template in ImagePullBackOff', () => {
    expect(badPod([pod('a', 'img:new', 'ImagePullBackOff')], 'c=img:new')).toBe('pod a: ImagePullBackOff');
  });

  it('ignores an old pod still failing while a rollback replaces it, and a pod being deleted', () => {
    expect(badPod([pod('old', 'img:bad', 'ImagePullBackOff'), pod('new', 'img:good')], 'c=img:good')).toBeUndefined();
    expect(badPod([pod('a', 'img:new', 'CrashLoopBackOff', true)], 'c=img:new')).toBeUndefined();
  });

  it('judges every pod when the template is not known', () => {
    expect(badPod([pod('old', 'img:bad', 'ErrImagePull')])).toBe('pod old: ErrImagePull');
  });
});

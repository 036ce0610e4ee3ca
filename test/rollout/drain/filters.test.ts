import { describe, expect, it } from 'vitest';
import { bytes, cpuMilli, parseQuantity } from '../../../src/kube/api/quantity.js';
import {
  classifyPod,
  classifyPods,
  daemonSetFilter,
  DRAIN_FILTERS,
  finishedFilter,
  localStorageFilter,
  mirrorPodFilter,
  podRequests,
  refusalMessage,
  unreplicatedFilter,
  type DrainFlags,
  type DrainPod,
} from '../../../src/rollout/drain/filters.js';
import { pod } from '../../helpers/objects/drain-pod.js';

const NO_FLAGS: DrainFlags = { force: false, deleteEmptyDirData: false };
const ALL_FLAGS: DrainFlags = { force: true, deleteEmptyDirData: true };

describe('quantities', () => {
  it('reads CPU in millicores and memory in bytes, rounding up', () => {
    expect(cpuMilli('250m')).toBe(250);
    expect(cpuMilli('1.5')).toBe(1500);
    expect(cpuMilli('0.1')).toBe(100);
    expect(cpuMilli('1n')).toBe(1);
    expect(cpuMilli(2)).toBe(2000);
    expect(bytes('128Mi')).toBe(128 * 2 ** 20);
    expect(bytes('1G')).toBe(1e9);
    expect(bytes('1.5Gi')).toBe(1.5 * 2 ** 30);
    expect(bytes('2e3')).toBe(2000);
    expect(bytes('110')).toBe(110);
  });

  it('counts missing or invalid quantities as 0', () => {
    expect(cpuMilli(undefined)).toBe(0);
    expect(bytes('lots')).toBe(0);
    expect(Number.isNaN(parseQuantity('12XB'))).toBe(true);
  });
});

describe('the drain filters, one at a time', () => {
  it('mirrorPodFilter stops mirror pods and passes others', () => {
    expect(mirrorPodFilter(pod('etcd-node-1', { mirror: true, owner: 'none' }), {}, ALL_FLAGS)).toMatchObject({
      pass: false,
      action: 'skipped-mirror',
    });
    expect(mirrorPodFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('daemonSetFilter ignores pods of an existing DaemonSet, even with every flag', () => {
    const p = pod('agent-x', { owner: 'DaemonSet' });
    expect(daemonSetFilter(p, { daemonSet: 'exists' }, ALL_FLAGS)).toMatchObject({ pass: false, action: 'ignored-daemonset' });
    expect(daemonSetFilter(p, {}, NO_FLAGS)).toMatchObject({ pass: false, action: 'ignored-daemonset' });
  });

  it('daemonSetFilter refuses an orphaned DaemonSet pod without --force and passes it with', () => {
    const p = pod('agent-x', { owner: 'DaemonSet' });
    const refused = daemonSetFilter(p, { daemonSet: 'missing' }, NO_FLAGS);
    expect(refused).toMatchObject({ pass: false, action: 'needs-force' });
    expect(refused.pass === false && refused.reason).toContain('DaemonSet apps/agent-owner not found');
    expect(daemonSetFilter(p, { daemonSet: 'missing' }, { force: true, deleteEmptyDirData: false })).toMatchObject({ pass: true });
  });

  it('daemonSetFilter lets finished DaemonSet pods and other pods through', () => {
    expect(daemonSetFilter(pod('agent-x', { owner: 'DaemonSet', phase: 'Failed' }), { daemonSet: 'exists' }, NO_FLAGS)).toEqual({
      pass: true,
    });
    expect(daemonSetFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('localStorageFilter refuses emptyDir pods without --delete-emptydir-data, unless they are finished', () => {
    expect(localStorageFilter(pod('cache-1', { emptyDir: true }), {}, NO_FLAGS)).toMatchObject({
      pass: false,
      action: 'needs-delete-emptydir-data',
    });
    expect(localStorageFilter(pod('cache-1', { emptyDir: true }), {}, { force: false, deleteEmptyDirData: true })).toMatchObject({
      pass: true,
      warning: expect.stringContaining('emptyDir'),
    });
    expect(localStorageFilter(pod('cache-1', { emptyDir: true, phase: 'Succeeded' }), {}, NO_FLAGS)).toEqual({ pass: true });
    expect(localStorageFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('unreplicatedFilter refuses pods without a controller unless --force, and passes finished ones', () => {
    expect(unreplicatedFilter(pod('lonely', { owner: 'none' }), {}, NO_FLAGS)).toMatchObject({ pass: false, action: 'needs-force' });
    expect(unreplicatedFilter(pod('lonely', { owner: 'none' }), {}, { force: true, deleteEmptyDirData: false })).toMatchObject({
      pass: true,
    });
    expect(unreplicatedFilter(pod('lonely', { owner: 'none', phase: 'Succeeded' }), {}, NO_FLAGS)).toEqual({ pass: true });
    expect(unreplicatedFilter(pod('db-0', { owner: 'StatefulSet' }), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('finishedFilter deletes Succeeded and Failed pods and passes running ones', () => {
    expect(finishedFilter(pod('job-1', { phase: 'Succeeded' }), {}, NO_FLAGS)).toEqual({
      pass: false,
      action: 'delete',
      reason: 'finished (Succeeded): deleted, no disruption budget applies',
    });
    expect(finishedFilter(pod('job-2', { phase: 'Failed', owner: 'none' }), {}, NO_FLAGS)).toMatchObject({ pass: false, action: 'delete' });
    expect(finishedFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
    expect(finishedFilter(pod('web-2', { phase: 'Pending' }), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('runs in kubectl order: DaemonSet, mirror, local storage, unreplicated, then finished', () => {
    expect(DRAIN_FILTERS.map((f) => f.name)).toEqual(['daemonSet', 'mirrorPod', 'localStorage', 'unreplicated', 'finished']);
  });
});

describe('classifyPod: the whole pipeline', () => {
  it('evicts controller-managed pods and says by what they are managed', () => {
    const c = classifyPod(pod('web-1', { cpu: '250m', memory: '64Mi' }), {}, NO_FLAGS);
    expect(c).toMatchObject({
      namespace: 'apps',
      name: 'web-1',
      uid: 'uid-web-1',
      action: 'evict',
      requests: { cpuMilli: 250, memoryBytes: 64 * 2 ** 20 },
    });
    expect(c.reason).toContain('ReplicaSet web-owner');
  });

  it('deletes finished pods, whatever else they are', () => {
    for (const p of [
      pod('job-1', { owner: 'Job', phase: 'Succeeded' }),
      pod('lonely', { owner: 'none', phase: 'Failed', emptyDir: true }),
    ]) {
      expect(classifyPod(p, {}, NO_FLAGS).action).toBe('delete');
    }
  });

  it('the first filter that stops a pod decides: a DaemonSet pod with emptyDir is ignored, not refused', () => {
    expect(classifyPod(pod('agent-x', { owner: 'DaemonSet', emptyDir: true }), { daemonSet: 'exists' }, NO_FLAGS).action).toBe(
      'ignored-daemonset',
    );
  });

  it('a mirror pod is skipped even when it declares no controller', () => {
    expect(classifyPod(pod('kube-apiserver-node-1', { owner: 'none', mirror: true }), {}, NO_FLAGS).action).toBe('skipped-mirror');
  });

  it('an unmanaged pod with emptyDir needs --delete-emptydir-data first (local storage runs before unreplicated), then --force', () => {
    const p = pod('lonely', { owner: 'none', emptyDir: true });
    expect(classifyPod(p, {}, NO_FLAGS).action).toBe('needs-delete-emptydir-data');
    expect(classifyPod(p, {}, { force: false, deleteEmptyDirData: true }).action).toBe('needs-force');
    const both = classifyPod(p, {}, ALL_FLAGS);
    expect(both.action).toBe('evict');
    expect(both.reason).toContain('--force');
    expect(both.reason).toContain('--delete-emptydir-data');
  });

  it('an orphaned DaemonSet pod is evicted with --force', () => {
    expect(
      classifyPod(pod('agent-x', { owner: 'DaemonSet' }), { daemonSet: 'missing' }, { force: true, deleteEmptyDirData: false }).action,
    ).toBe('evict');
  });

  it('names the refused pods and the flag each needs, and nothing when no pod is refused', () => {
    const pods = [
      pod('web-1'),
      pod('lonely', { owner: 'none' }),
      pod('cache-1', { emptyDir: true }),
      pod('agent-x', { owner: 'DaemonSet' }),
    ];
    const owners = new Map([['uid-agent-x', { daemonSet: 'exists' as const }]]);
    const classes = classifyPods(pods, owners, NO_FLAGS);
    expect(classes.map((c) => c.action)).toEqual(['evict', 'needs-force', 'needs-delete-emptydir-data', 'ignored-daemonset']);
    const msg = refusalMessage('node-1', classes)!;
    expect(msg).toMatch(/^cannot drain node node-1: /);
    expect(msg).toMatch(/needs --force for apps\/lonely/);
    expect(msg).toMatch(/needs --delete-emptydir-data for apps\/cache-1/);
    expect(msg).not.toContain('web-1');
    expect(refusalMessage('node-1', classifyPods(pods, owners, ALL_FLAGS))).toBeUndefined();
  });
});

describe('podRequests', () => {
  it('sums containers, takes the largest init container when bigger, and adds the overhead', () => {
    const p: DrainPod = {
      spec: {
        containers: [{ resources: { requests: { cpu: '100m', memory: '100Mi' } } }, { resources: { requests: { cpu: '200m' } } }, {}],
        initContainers: [{ resources: { requests: { cpu: '1', memory: '10Mi' } } }],
        overhead: { cpu: '10m', memory: '1Mi' },
      },
    };
    expect(podRequests(p)).toEqual({ cpuMilli: 1010, memoryBytes: 101 * 2 ** 20 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  classifyPod,
  classifyPods,
  daemonSetFilter,
  DRAIN_FILTERS,
  labelSelectorMatches,
  localStorageFilter,
  markPdbBlocked,
  mirrorPodFilter,
  pdbSelectsPod,
  podRequests,
  refusalMessage,
  roomCheck,
  selectorError,
  unreplicatedFilter,
  type DrainFlags,
  type DrainPod,
  type LabelSelector,
  type NodeRoom,
  type PdbObject,
} from '../../src/rollout/drain-filters.js';
import { bytes, cpuMilli, parseQuantity } from '../../src/kube/quantity.js';

const NO_FLAGS: DrainFlags = { force: false, deleteEmptyDirData: false };
const ALL_FLAGS: DrainFlags = { force: true, deleteEmptyDirData: true };

type Owner = 'ReplicaSet' | 'DaemonSet' | 'StatefulSet' | 'Job' | 'none';

/** A pod literal: Running, owned by a ReplicaSet, unless told otherwise. */
function pod(
  name: string,
  over: { ns?: string; owner?: Owner; phase?: string; emptyDir?: boolean; mirror?: boolean; labels?: Record<string, string>; cpu?: string; memory?: string; deleting?: boolean } = {},
): DrainPod {
  const owner = over.owner ?? 'ReplicaSet';
  return {
    metadata: {
      name,
      namespace: over.ns ?? 'apps',
      uid: `uid-${name}`,
      labels: over.labels ?? { app: name.split('-')[0]! },
      ...(over.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'abc123' } } : {}),
      ...(owner !== 'none' ? { ownerReferences: [{ kind: owner, name: `${name.split('-')[0]}-owner`, controller: true, apiVersion: 'apps/v1', uid: 'o1' }] } : {}),
      ...(over.deleting ? { deletionTimestamp: '2024-05-01T10:00:00Z' } : {}),
    },
    spec: {
      nodeName: 'node-1',
      containers: [{ resources: { requests: { ...(over.cpu ? { cpu: over.cpu } : {}), ...(over.memory ? { memory: over.memory } : {}) } } }],
      ...(over.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : { volumes: [{ name: 'cfg' }] }),
    },
    status: { phase: over.phase ?? 'Running' },
  };
}

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
    expect(mirrorPodFilter(pod('etcd-node-1', { mirror: true, owner: 'none' }), {}, ALL_FLAGS)).toMatchObject({ pass: false, action: 'skipped-mirror' });
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
    expect(daemonSetFilter(pod('agent-x', { owner: 'DaemonSet', phase: 'Failed' }), { daemonSet: 'exists' }, NO_FLAGS)).toEqual({ pass: true });
    expect(daemonSetFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('localStorageFilter refuses emptyDir pods without --delete-emptydir-data, unless they are finished', () => {
    expect(localStorageFilter(pod('cache-1', { emptyDir: true }), {}, NO_FLAGS)).toMatchObject({ pass: false, action: 'needs-delete-emptydir-data' });
    expect(localStorageFilter(pod('cache-1', { emptyDir: true }), {}, { force: false, deleteEmptyDirData: true })).toMatchObject({ pass: true, warning: expect.stringContaining('emptyDir') });
    expect(localStorageFilter(pod('cache-1', { emptyDir: true, phase: 'Succeeded' }), {}, NO_FLAGS)).toEqual({ pass: true });
    expect(localStorageFilter(pod('web-1'), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('unreplicatedFilter refuses pods without a controller unless --force, and passes finished ones', () => {
    expect(unreplicatedFilter(pod('lonely', { owner: 'none' }), {}, NO_FLAGS)).toMatchObject({ pass: false, action: 'needs-force' });
    expect(unreplicatedFilter(pod('lonely', { owner: 'none' }), {}, { force: true, deleteEmptyDirData: false })).toMatchObject({ pass: true });
    expect(unreplicatedFilter(pod('lonely', { owner: 'none', phase: 'Succeeded' }), {}, NO_FLAGS)).toEqual({ pass: true });
    expect(unreplicatedFilter(pod('db-0', { owner: 'StatefulSet' }), {}, NO_FLAGS)).toEqual({ pass: true });
  });

  it('runs in kubectl order: DaemonSet, mirror, local storage, unreplicated', () => {
    expect(DRAIN_FILTERS.map((f) => f.name)).toEqual(['daemonSet', 'mirrorPod', 'localStorage', 'unreplicated']);
  });
});

describe('classifyPod: the whole pipeline', () => {
  it('evicts controller-managed pods and says by what they are managed', () => {
    const c = classifyPod(pod('web-1', { cpu: '250m', memory: '64Mi' }), {}, NO_FLAGS);
    expect(c).toMatchObject({ namespace: 'apps', name: 'web-1', uid: 'uid-web-1', action: 'evict', requests: { cpuMilli: 250, memoryBytes: 64 * 2 ** 20 } });
    expect(c.reason).toContain('ReplicaSet web-owner');
  });

  it('deletes finished pods, whatever else they are', () => {
    for (const p of [pod('job-1', { owner: 'Job', phase: 'Succeeded' }), pod('lonely', { owner: 'none', phase: 'Failed', emptyDir: true })]) {
      expect(classifyPod(p, {}, NO_FLAGS).action).toBe('delete');
    }
  });

  it('the first filter that stops a pod decides: a DaemonSet pod with emptyDir is ignored, not refused', () => {
    expect(classifyPod(pod('agent-x', { owner: 'DaemonSet', emptyDir: true }), { daemonSet: 'exists' }, NO_FLAGS).action).toBe('ignored-daemonset');
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
    expect(classifyPod(pod('agent-x', { owner: 'DaemonSet' }), { daemonSet: 'missing' }, { force: true, deleteEmptyDirData: false }).action).toBe('evict');
  });

  it('names the refused pods and the flag each needs, and nothing when no pod is refused', () => {
    const pods = [pod('web-1'), pod('lonely', { owner: 'none' }), pod('cache-1', { emptyDir: true }), pod('agent-x', { owner: 'DaemonSet' })];
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

describe('labelSelectorMatches', () => {
  const labels = { app: 'web', tier: 'front', env: 'prod' };

  it('matches matchLabels exactly', () => {
    expect(labelSelectorMatches({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: { app: 'web', tier: 'back' } }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchLabels: { missing: '' } }, labels)).toBe(false);
  });

  it('null matches nothing, empty matches everything', () => {
    expect(labelSelectorMatches(null, labels)).toBe(false);
    expect(labelSelectorMatches(undefined, labels)).toBe(false);
    expect(labelSelectorMatches({}, labels)).toBe(true);
    expect(labelSelectorMatches({ matchLabels: {}, matchExpressions: [] }, {})).toBe(true);
  });

  it('In and NotIn (NotIn also holds when the label is absent)', () => {
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(true);
  });

  it('Exists and DoesNotExist', () => {
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, labels)).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, labels)).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels)).toBe(false);
  });

  it('requires matchLabels and every expression together', () => {
    const sel = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }, { key: 'canary', operator: 'DoesNotExist' }] };
    expect(labelSelectorMatches(sel, labels)).toBe(true);
    expect(labelSelectorMatches(sel, { ...labels, canary: 'true' })).toBe(false);
    expect(labelSelectorMatches(sel, { ...labels, app: 'api' })).toBe(false);
  });

  it('an invalid selector is reported and matches nothing', () => {
    const bad = [
      { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] },
      { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] },
      { matchExpressions: [{ key: 'env', operator: 'Gt', values: ['1'] }] },
    ];
    for (const s of bad) {
      expect(selectorError(s)).toBeDefined();
      expect(labelSelectorMatches(s, labels)).toBe(false);
    }
    expect(selectorError({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['x'] }] })).toBeUndefined();
  });
});

function pdb(name: string, selector: LabelSelector | null, disruptionsAllowed: number, over: { ns?: string; apiVersion?: string; generation?: number; observed?: number } = {}): PdbObject {
  return {
    apiVersion: over.apiVersion ?? 'policy/v1beta1',
    metadata: { name, namespace: over.ns ?? 'apps', generation: over.generation ?? 1 },
    spec: { selector },
    status: { disruptionsAllowed, observedGeneration: over.observed ?? over.generation ?? 1 },
  };
}

describe('PodDisruptionBudgets', () => {
  it('covers pods of its namespace that its selector matches', () => {
    const b = pdb('web-pdb', { matchLabels: { app: 'web' } }, 0);
    expect(pdbSelectsPod(b, pod('web-1'))).toBe(true);
    expect(pdbSelectsPod(b, pod('web-1', { ns: 'other' }))).toBe(false);
    expect(pdbSelectsPod(b, pod('api-1'))).toBe(false);
  });

  it('an empty selector covers nothing in policy/v1beta1 and every pod of the namespace in policy/v1', () => {
    expect(pdbSelectsPod(pdb('all', {}, 0, { apiVersion: 'policy/v1beta1' }), pod('web-1'))).toBe(false);
    expect(pdbSelectsPod(pdb('all', {}, 0, { apiVersion: 'policy/v1' }), pod('web-1'))).toBe(true);
  });

  it('marks the pods a budget with 0 disruptions allowed blocks, with its name and allowance', () => {
    const pods = [pod('web-1'), pod('web-2'), pod('api-1')];
    const out = markPdbBlocked(classifyPods(pods, new Map(), NO_FLAGS), pods, [pdb('web-pdb', { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }, 0)]);
    expect(out.map((c) => [c.name, c.action])).toEqual([
      ['web-1', 'blocked-pdb'],
      ['web-2', 'blocked-pdb'],
      ['api-1', 'evict'],
    ]);
    expect(out[0]!.pdb).toEqual({ namespace: 'apps', name: 'web-pdb', disruptionsAllowed: 0 });
    expect(out[0]!.reason).toContain('web-pdb');
  });

  it('lets as many pods through as disruptions are allowed; the rest are blocked right now', () => {
    const pods = [pod('web-1'), pod('web-2'), pod('web-3')];
    const out = markPdbBlocked(classifyPods(pods, new Map(), NO_FLAGS), pods, [pdb('web-pdb', { matchLabels: { app: 'web' } }, 2)]);
    expect(out.map((c) => c.action)).toEqual(['evict', 'evict', 'blocked-pdb']);
    expect(out[2]!.pdb?.disruptionsAllowed).toBe(2);
  });

  it('does not block pods the eviction API lets go regardless (pending, finished, terminating) or pods not evicted at all', () => {
    const pods = [pod('web-1', { phase: 'Pending' }), pod('web-2', { phase: 'Succeeded' }), pod('web-3', { deleting: true }), pod('web-4', { owner: 'DaemonSet' })];
    const classes = classifyPods(pods, new Map(), NO_FLAGS);
    const out = markPdbBlocked(classes, pods, [pdb('web-pdb', { matchLabels: { app: 'web' } }, 0)]);
    expect(out.map((c) => c.action)).toEqual(['evict', 'delete', 'evict', 'ignored-daemonset']);
  });

  it('blocks a pod covered by two budgets, and one whose budget is not processed yet', () => {
    const pods = [pod('web-1')];
    const classes = classifyPods(pods, new Map(), NO_FLAGS);
    const two = markPdbBlocked(classes, pods, [pdb('a', { matchLabels: { app: 'web' } }, 5), pdb('b', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, 5)]);
    expect(two[0]).toMatchObject({ action: 'blocked-pdb', reason: expect.stringContaining('2 PodDisruptionBudgets') });
    const stale = markPdbBlocked(classes, pods, [pdb('a', { matchLabels: { app: 'web' } }, 5, { generation: 3, observed: 2 })]);
    expect(stale[0]).toMatchObject({ action: 'blocked-pdb', reason: expect.stringContaining('still being processed') });
  });
});

describe('roomCheck', () => {
  const node = (name: string, over: Partial<NodeRoom> & { usedCpu?: number; usedMem?: number; usedPods?: number } = {}): NodeRoom => ({
    name,
    ready: over.ready ?? true,
    unschedulable: over.unschedulable ?? false,
    allocatable: { cpuMilli: 4000, memoryBytes: 16 * 2 ** 30, pods: 110 },
    requested: { cpuMilli: over.usedCpu ?? 0, memoryBytes: over.usedMem ?? 0, pods: over.usedPods ?? 0 },
  });
  const req = (cpu: number, memGi: number) => ({ cpuMilli: cpu, memoryBytes: memGi * 2 ** 30 });

  it('fits when the free sum per resource covers the evicted requests, and says it is a sum', () => {
    const r = roomCheck([req(1000, 1), req(1000, 1)], [node('n1'), node('n2', { usedCpu: 3500 })], new Set(['n1']));
    // n1 is being drained: only n2's 500m are free.
    expect(r.fits).toBe(false);
    expect(r.detail).toContain('CPU');
    expect(r.detail).toMatch(/sum/);
    const ok = roomCheck([req(1000, 1), req(1000, 1)], [node('n1'), node('n2'), node('n3', { usedCpu: 3000 })], new Set(['n1']));
    expect(ok.fits).toBe(true);
    expect(ok.detail).toMatch(/^fits on 2 schedulable Ready nodes/);
    expect(ok.detail).toMatch(/sum/);
  });

  it('leaves out cordoned and not-Ready nodes', () => {
    const r = roomCheck([req(100, 1)], [node('n1'), node('n2', { unschedulable: true }), node('n3', { ready: false })], new Set(['n1']));
    expect(r.fits).toBe(false);
    expect(r.detail).toMatch(/no schedulable Ready node/);
  });

  it('checks memory and pod slots too, and nothing to evict always fits', () => {
    expect(roomCheck([req(0, 20)], [node('n1'), node('n2')], new Set(['n1'])).detail).toMatch(/memory/);
    const many = Array.from({ length: 111 }, () => req(0, 0));
    expect(roomCheck(many, [node('n1'), node('n2')], new Set(['n1']))).toMatchObject({ fits: false, detail: expect.stringContaining('pod slots') });
    expect(roomCheck([], [], new Set())).toEqual({ fits: true, detail: 'nothing to evict' });
  });
});

import { describe, expect, it } from 'vitest';
import { pdbSelectsPod, type PdbObject } from '../../../src/kube/pods/pdb.js';
import type { LabelSelector } from '../../../src/kube/api/selector.js';
import { markPdbBlocked } from '../../../src/rollout/drain/pdb-check.js';
import { classifyPods, type DrainFlags } from '../../../src/rollout/drain/filters.js';
import { pod } from '../../helpers/objects/drain-pod.js';

const NO_FLAGS: DrainFlags = { force: false, deleteEmptyDirData: false };

function pdb(
  name: string,
  selector: LabelSelector | null,
  disruptionsAllowed: number,
  over: { ns?: string; apiVersion?: string; generation?: number; observed?: number } = {},
): PdbObject {
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
    const out = markPdbBlocked(classifyPods(pods, new Map(), NO_FLAGS), pods, [
      pdb('web-pdb', { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] }, 0),
    ]);
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
    const pods = [
      pod('web-1', { phase: 'Pending' }),
      pod('web-2', { phase: 'Succeeded' }),
      pod('web-3', { deleting: true }),
      pod('web-4', { owner: 'DaemonSet' }),
    ];
    const classes = classifyPods(pods, new Map(), NO_FLAGS);
    const out = markPdbBlocked(classes, pods, [pdb('web-pdb', { matchLabels: { app: 'web' } }, 0)]);
    expect(out.map((c) => c.action)).toEqual(['evict', 'delete', 'evict', 'ignored-daemonset']);
  });

  it('blocks a pod covered by two budgets, and one whose budget is not processed yet', () => {
    const pods = [pod('web-1')];
    const classes = classifyPods(pods, new Map(), NO_FLAGS);
    const two = markPdbBlocked(classes, pods, [
      pdb('a', { matchLabels: { app: 'web' } }, 5),
      pdb('b', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, 5),
    ]);
    expect(two[0]).toMatchObject({ action: 'blocked-pdb', reason: expect.stringContaining('2 PodDisruptionBudgets') });
    const stale = markPdbBlocked(classes, pods, [pdb('a', { matchLabels: { app: 'web' } }, 5, { generation: 3, observed: 2 })]);
    expect(stale[0]).toMatchObject({ action: 'blocked-pdb', reason: expect.stringContaining('still being processed') });
  });
});

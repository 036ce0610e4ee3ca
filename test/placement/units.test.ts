import { describe, expect, it } from 'vitest';
import { groupName, unitsOf } from '../../src/placement/units.js';
import { configMap, deployment, policy } from './fixtures.js';

describe('the units placement decides for', () => {
  it('objects sharing the groupBy label land as one ScheduleGroup; the annotation takes an object out of any policy', () => {
    const p = policy('apps', { groupBy: { labelKey: 'app' } });
    const objects = [
      deployment('web', 1, 100, { app: 'shop' }),
      configMap('web-config', { app: 'shop' }),
      deployment('pinned', 1, 100, { app: 'shop' }, { 'nova.elotl.co/cluster': 'b' }),
      configMap('loose'),
    ];
    const units = unitsOf(objects, [p], () => ({}));
    const group = units.find((u) => u.group);
    expect(group?.group).toEqual({ name: groupName('apps', 'app', 'shop'), labelKey: 'app', value: 'shop' });
    expect(group?.members.map((m) => m.ref.name)).toEqual(['web', 'web-config']);
    expect(units.find((u) => u.members[0]?.ref.name === 'pinned')?.annotation).toBe('b');
    expect(units.find((u) => u.members[0]?.ref.name === 'loose')?.policy?.name).toBe('apps');
    expect(groupName('apps', 'app', 'shop')).toMatch(/^apps-[0-9a-f]{8}$/);
  });

  it('several policies: the oldest is used, the others named as a conflict; the namespace name counts as its label', () => {
    const older = policy('older', {}, '2026-01-01T00:00:00Z');
    const newer = policy('newer', {}, '2026-02-01T00:00:00Z');
    const elsewhere = policy('elsewhere', { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-b' } } });
    const [u] = unitsOf([deployment('web', 1, 100)], [newer, elsewhere, older], () => undefined);
    expect(u?.policy?.name).toBe('older');
    expect(u?.conflicts).toEqual({ 'Deployment/team-a/web': ['newer'] });
  });

  it('resourceSelectors: an object matching none of the label selectors is not caught', () => {
    const p = policy('labelled', {
      resourceSelectors: {
        labelSelectors: [{ matchLabels: { tier: 'web' } }, { matchExpressions: [{ key: 'team', operator: 'Exists' }] }],
      },
    });
    const units = unitsOf(
      [deployment('a', 1, 1, { tier: 'web' }), deployment('b', 1, 1, { team: 'x' }), deployment('c', 1, 1)],
      [p],
      () => ({}),
    );
    expect(units.map((u) => [u.members[0]?.ref.name, u.policy?.name])).toEqual([
      ['a', 'labelled'],
      ['b', 'labelled'],
      ['c', undefined],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { labelSelectorMatches, parseSelector, selectorError, selectorMatches, selectorString } from '../../../src/kube/api/selector.js';
import { ROLE, usage } from '../../helpers/objects/rollout.js';

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
    const sel = {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod'] },
        { key: 'canary', operator: 'DoesNotExist' },
      ],
    };
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

describe('label selectors in kubectl syntax', () => {
  it('parses every form kubectl accepts', () => {
    expect(parseSelector('a=b,c!=d, e in (x, y),!f,g')).toEqual([
      { key: 'a', operator: 'In', values: ['b'] },
      { key: 'c', operator: 'NotIn', values: ['d'] },
      { key: 'e', operator: 'In', values: ['x', 'y'] },
      { key: 'f', operator: 'DoesNotExist', values: [] },
      { key: 'g', operator: 'Exists', values: [] },
    ]);
    expect(parseSelector('kubernetes.io/role==master')).toEqual([{ key: 'kubernetes.io/role', operator: 'In', values: ['master'] }]);
    expect(parseSelector('tier notin (web,db)')).toEqual([{ key: 'tier', operator: 'NotIn', values: ['web', 'db'] }]);
    expect(parseSelector('size>3,size<10')).toEqual([
      { key: 'size', operator: 'Gt', values: ['3'] },
      { key: 'size', operator: 'Lt', values: ['10'] },
    ]);
    expect(parseSelector('a=')).toEqual([{ key: 'a', operator: 'In', values: [''] }]);
    expect(parseSelector('node-role.kubernetes.io/worker')).toEqual([
      { key: 'node-role.kubernetes.io/worker', operator: 'Exists', values: [] },
    ]);
    expect(parseSelector('')).toEqual([]);
    expect(parseSelector('  ')).toEqual([]);
  });

  it('refuses malformed selectors with one line naming the selector, the column and what was expected', () => {
    const cases: [string, RegExp][] = [
      ['a in (x', /invalid selector "a in \(x": expected "," or "\)" after the value, found the end \(at column 8\)/],
      ['a in x', /expected "\(" after "in", found "x"/],
      ['a in ()', /"in" needs at least one value/],
      ['a=b,', /expected a requirement after ","/],
      [',a', /expected a label key, found ","/],
      ['a b', /expected "=", "==", "!=", "in", "notin", "<", ">", "," or the end after "a", found "b"/],
      ['a=b=c', /expected "," or the end, found "="/],
      ['a>x', /">" needs a whole number, found "x"/],
      ['-a=b', /label key "-a"/],
      ['a=-b', /label value "-b"/],
      ['Example.com/a=b', /prefix "Example.com" is not a DNS subdomain/],
      [`a=${'x'.repeat(64)}`, /longer than 63 characters/],
      ['!', /expected a label key, found the end/],
    ];
    for (const [sel, re] of cases) {
      const err = usage(() => parseSelector(sel));
      expect(err.message, sel).toMatch(re);
      expect(err.message, sel).toContain(`invalid selector "${sel}"`);
      expect(err.message.split('\n')).toHaveLength(1);
    }
  });

  it('matches as kubectl does: != and notin also match nodes without the label', () => {
    const labels = { [ROLE]: 'worker', zone: 'a', size: '4' };
    const m = (sel: string, l: Record<string, string> = labels) => selectorMatches(parseSelector(sel), l);
    expect(m(`${ROLE}=worker`)).toBe(true);
    expect(m(`${ROLE}=master`)).toBe(false);
    expect(m('team!=x')).toBe(true);
    expect(m('zone notin (b,c)')).toBe(true);
    expect(m('zone notin (a)')).toBe(false);
    expect(m('zone in (a,b),!gpu')).toBe(true);
    expect(m('gpu')).toBe(false);
    expect(m('size>3,size<5')).toBe(true);
    expect(m('size>4')).toBe(false);
    expect(m('zone>1')).toBe(false); // not a number
    expect(m('')).toBe(true);
  });

  it('turns a metav1.LabelSelector into a selector string that parses back to the same meaning', () => {
    const sel = {
      matchLabels: { [ROLE]: 'worker' },
      matchExpressions: [
        { key: 'zone', operator: 'In', values: ['a', 'b'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'gpu', operator: 'DoesNotExist' },
        { key: 'ssd', operator: 'Exists' },
      ],
    };
    const s = selectorString(sel);
    expect(s).toBe(`${ROLE}=worker,zone in (a,b),tier notin (db),!gpu,ssd`);
    const cases: Record<string, string>[] = [
      { [ROLE]: 'worker', zone: 'a', ssd: '' },
      { [ROLE]: 'worker', zone: 'c', ssd: '' },
      { [ROLE]: 'worker', zone: 'a', ssd: '', gpu: '1' },
    ];
    for (const labels of cases) {
      const expected = labels.zone !== 'c' && !('gpu' in labels);
      expect(selectorMatches(parseSelector(s), labels)).toBe(expected);
    }
    expect(() => selectorString({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow(/operator "Gt"/);
    expect(() => selectorString({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(/needs at least one value/);
  });
});

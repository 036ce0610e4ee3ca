import { describe, expect, it } from 'vitest';
import { nodeRolloutBody } from '../../../src/kube/navarchos/objects.js';
import { describeSelector, parseLabelSelector } from '../../../src/kube/api/selector.js';

describe('NodeRollout requests (pure)', () => {
  it('reads kubectl selectors into LabelSelectors and back', () => {
    expect(parseLabelSelector('kubernetes.io/role=master')).toEqual({ matchLabels: { 'kubernetes.io/role': 'master' } });
    expect(parseLabelSelector('a==b, zone in (zone-a,zone-b),c!=d,e,!f')).toEqual({
      matchLabels: { a: 'b' },
      matchExpressions: [
        { key: 'zone', operator: 'In', values: ['zone-a', 'zone-b'] },
        { key: 'c', operator: 'NotIn', values: ['d'] },
        { key: 'e', operator: 'Exists' },
        { key: 'f', operator: 'DoesNotExist' },
      ],
    });
    expect(describeSelector(parseLabelSelector('a==b, zone in (zone-b,zone-a),c!=d,e,!f'))).toBe('a=b,zone in (zone-a,zone-b),c!=d,e,!f');
    expect(() => parseLabelSelector('a in ()')).toThrow(/"in" needs at least one value/);
    expect(() => parseLabelSelector('a=b=c')).toThrow(/expected "," or the end, found "="/);
    expect(() => parseLabelSelector('a=b,a=c')).toThrow(/"a" cannot equal two values/);
    expect(() => parseLabelSelector('a>1')).toThrow(/">" has no LabelSelector form/);
    expect(() => nodeRolloutBody({})).toThrow(/at least one/);
  });

  it('writes a NodeRollout as Návarchos’ README does', () => {
    expect(
      nodeRolloutBody({
        nodeSelectors: [
          { selector: 'kubernetes.io/role=master', priority: 20 },
          { matchLabels: { 'kubernetes.io/role': 'worker' }, priority: 10 },
        ],
      }),
    ).toEqual({
      apiVersion: 'navarchos.pusher.com/v1alpha1',
      kind: 'NodeRollout',
      metadata: { generateName: 'rollout-' },
      spec: {
        nodeSelectors: [
          { matchLabels: { 'kubernetes.io/role': 'master' }, replacement: { priority: 20 } },
          { matchLabels: { 'kubernetes.io/role': 'worker' }, replacement: { priority: 10 } },
        ],
      },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseSelector, selectorMatches } from '../../src/kube/api/selector.js';
import { resolvePlan } from '../../src/rollout/plan.js';
import { nodeRolloutObject, parseNodeRollout } from '../../src/rollout/noderollout.js';
import { CLUSTER, usage } from '../helpers/objects/rollout.js';

describe('Navarchos NodeRollout YAML', () => {
  const README = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  # A NodeReplacement will be created with a name 'rollout-<random-string>'
  generateName: "rollout-"
spec:
  nodeSelectors:
  - replacement:
      priority: 20
    matchLabels:
      "kubernetes.io/role": "master"
  - replacement:
      priority: 10
    matchLabels:
      "kubernetes.io/role": "worker"
`;

  it('reads the README example into selectors with priorities', () => {
    expect(parseNodeRollout(README, 'r.yaml')).toEqual({
      nodeSelectors: [
        { selector: 'kubernetes.io/role=master', priority: 20 },
        { selector: 'kubernetes.io/role=worker', priority: 10 },
      ],
      nodeNames: [],
    });
    const plan = resolvePlan(CLUSTER, parseNodeRollout(README));
    expect(plan.nodes.map((n) => n.name)).toEqual(['m-1', 'm-2', 'w-1', 'w-2', 'w-3', 'w-4']);
  });

  it('reads nodeNames, a flat priority, matchExpressions and metadata.name', () => {
    const yaml = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  name: rollout-6lwkc
spec:
  nodeNames:
  - replacement:
      priority: 20
    name: "node-1"
  - name: node-2
  nodeSelectors:
  - priority: 5
    matchExpressions:
    - key: zone
      operator: In
      values: [a, b]
    - key: gpu
      operator: DoesNotExist
`;
    expect(parseNodeRollout(yaml)).toEqual({
      name: 'rollout-6lwkc',
      nodeNames: [
        { name: 'node-1', priority: 20 },
        { name: 'node-2', priority: 0 },
      ],
      nodeSelectors: [{ selector: 'zone in (a,b),!gpu', priority: 5 }],
    });
  });

  it('errors are one line with the file and line number', () => {
    const bad = (text: string) => usage(() => parseNodeRollout(text, 'r.yaml')).message;
    expect(bad(README.replace('priority: 10', 'priority: high'))).toBe(
      'r.yaml:13: spec.nodeSelectors[1].replacement.priority must be a whole number, not "high"',
    );
    expect(bad(README.replace('"master"', 'true'))).toMatch(
      /^r\.yaml:11: spec\.nodeSelectors\[0\]\.matchLabels\["kubernetes\.io\/role"\] must be a string/,
    );
    expect(bad(README.replace('kind: NodeRollout', 'kind: NodeReplacement'))).toBe(
      'r.yaml:2: kind is "NodeReplacement", expected NodeRollout',
    );
    expect(bad(README.replace('navarchos.pusher.com/v1alpha1', 'v1'))).toMatch(/^r\.yaml:1: apiVersion is "v1"/);
    expect(
      bad(README.replace('  - replacement:\n      priority: 10\n', '  - replacement:\n      priority: 10\n    matchName: x\n')),
    ).toMatch(/^r\.yaml:14: spec\.nodeSelectors\[1\]\.matchName is not a field/);
    expect(bad(`${README}    - bad: [\n`)).toMatch(/^r\.yaml:\d+: invalid YAML/);
    expect(bad('apiVersion: navarchos.pusher.com/v1alpha1\nkind: NodeRollout\nspec: {}\n')).toBe(
      'r.yaml:3: spec has no nodeSelectors and no nodeNames: it selects no node',
    );
    expect(
      bad(`apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
spec:
  nodeSelectors:
  - matchExpressions:
    - key: zone
      operator: Near
`),
    ).toMatch(/^r\.yaml:5: spec\.nodeSelectors\[0\]: matchExpressions: operator "Near"/);
    expect(bad(`${README}---\n${README}`)).toMatch(/^r\.yaml:16: more than one document/);
  });

  it('a rollout spec becomes a NodeRollout object that reads back the same', () => {
    const obj = nodeRolloutObject({
      nodeSelectors: [{ selector: 'kubernetes.io/role=master,zone notin (c)', priority: 20 }],
      nodeNames: [{ name: 'node-1', priority: 5 }],
    });
    expect(obj).toMatchObject({ apiVersion: 'navarchos.pusher.com/v1alpha1', kind: 'NodeRollout', metadata: { generateName: 'rollout-' } });
    const back = parseNodeRollout(stringify(obj));
    expect(back.nodeNames).toEqual([{ name: 'node-1', priority: 5 }]);
    const sel = parseSelector(back.nodeSelectors[0]!.selector);
    expect(selectorMatches(sel, { 'kubernetes.io/role': 'master', zone: 'a' })).toBe(true);
    expect(selectorMatches(sel, { 'kubernetes.io/role': 'master', zone: 'c' })).toBe(false);
  });
});

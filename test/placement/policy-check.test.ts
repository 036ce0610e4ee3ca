import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkPolicy, policyCheckText, policyFromText } from '../../src/placement/policy-check.js';
import { placementRead } from '../helpers/screens/workloads.js';

const policyYaml = (name: string, spec: string) =>
  `apiVersion: policy.elotl.co/v1alpha1\nkind: SchedulePolicy\nmetadata: {name: ${name}}\nspec:\n${spec}\n`;

describe('fleetdeck policy check', () => {
  it('a policy for objects no policy catches: what it catches, the clusters it selects, where each would go', () => {
    const read = placementRead();
    read.cp.objects.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'shop', labels: { team: 'new' } },
      data: {},
    });
    const p = policyFromText(
      policyYaml(
        'new-team',
        '  resourceSelectors: {labelSelectors: [{matchLabels: {team: new}}]}\n  clusterSelector: {matchLabels: {kubernetes.io/metadata.name: w2}}',
      ),
      'p.yaml',
    );
    const check = checkPolicy(read, p);
    expect(check).toEqual({
      policy: 'new-team',
      catches: [{ ref: 'ConfigMap/shop/settings', usedPolicy: 'new-team', overlaps: [] }],
      clusters: [{ name: 'w2', ready: true }],
      units: [{ members: ['ConfigMap/shop/settings'], group: null, targets: [{ cluster: 'w2', replicas: null }], pending: null }],
    });
    expect(policyCheckText(check).split('\n')).toEqual([
      'SchedulePolicy new-team (not applied; as if applied now):',
      '  selects 1 cluster(s): w2',
      '  catches 1 object(s):',
      '    ConfigMap/shop/settings',
      '  ConfigMap/shop/settings would go to w2',
    ]);
  });

  it('objects another policy already catches stay with it (the oldest wins); a Divide shows its split', () => {
    const p = policyFromText(
      policyYaml(
        'late',
        '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: split}}]}\n  spreadConstraints: {spreadMode: Divide, topologyKey: kubernetes.io/metadata.name}',
      ),
      'p.yaml',
    );
    const check = checkPolicy(placementRead(), p);
    expect(check.catches).toEqual([{ ref: 'Deployment/shop/web', usedPolicy: 'split', overlaps: ['split'] }]);
    expect(check.units).toEqual([]);
    expect(policyCheckText(check)).toContain('Deployment/shop/web — also matched by split: split would be used');
  });

  it('a file that is not one named SchedulePolicy: one line, a usage error', () => {
    expect(() => policyFromText('kind: ConfigMap\nmetadata: {name: x}\n', 'x.yaml')).toThrow(
      new UsageError('x.yaml holds 0 SchedulePolicy objects; give a file with one named SchedulePolicy'),
    );
    expect(() => policyFromText('a: [', 'bad.yaml')).toThrow(/^bad\.yaml is not YAML: /);
    expect(() => policyFromText('kind: SchedulePolicy\nmetadata: {}\n', 'n.yaml')).toThrow(/without a name/);
  });
});

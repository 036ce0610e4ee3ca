import { describe, expect, it } from 'vitest';
import { checkPolicy, policyCheckText, policyFromText } from '../../src/placement/policy-check.js';
import { withFileObjects } from '../../src/placement/policy-file.js';
import { placementRead } from '../helpers/screens/workloads.js';

const file = `apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: policy.elotl.co/v1alpha1
kind: SchedulePolicy
metadata: {name: team-b}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: team-b}}
  clusterSelector: {matchLabels: {kubernetes.io/metadata.name: w2}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: team-b}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: api, image: nginx, resources: {requests: {cpu: 100m}}}]}
`;

describe('policy check on a file with more than the policy', () => {
  it('the file’s namespace and workloads count as applied with it', () => {
    const alone = checkPolicy(placementRead(), policyFromText(file, 'f.yaml'));
    expect(alone.catches).toEqual([]);

    const { read, fromFile } = withFileObjects(placementRead(), file);
    expect(fromFile).toEqual(['Deployment/team-b/api']);
    const check = { ...checkPolicy(read, policyFromText(file, 'f.yaml')), fromFile };
    expect(check.catches.map((c) => c.ref)).toEqual(['Deployment/team-b/api']);
    expect(check.units.map((u) => u.targets.map((t) => t.cluster))).toEqual([['w2']]);
    expect(policyCheckText(check).split('\n').slice(0, 2)).toEqual([
      'SchedulePolicy team-b (not applied; as if applied now):',
      "  with the file's 1 workload(s) as if applied too: Deployment/team-b/api",
    ]);
  });

  it('an object of the file replaces the control plane’s of the same kind and name; a file of one policy changes nothing', () => {
    const edited = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, labels: {placement: none}}\nspec: {replicas: 1}\n`;
    const { read } = withFileObjects(placementRead(), edited);
    const webs = read.cp.objects.filter((o) => o.metadata.name === 'web');
    expect(webs).toHaveLength(1);
    expect(webs[0]!.metadata.labels).toEqual({ placement: 'none' });
    // One without a namespace goes where kubectl apply -f puts it: default.
    expect(withFileObjects(placementRead(), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n').fromFile).toEqual([
      'ConfigMap/default/cfg',
    ]);
    const only = withFileObjects(placementRead(), 'apiVersion: policy.elotl.co/v1alpha1\nkind: SchedulePolicy\nmetadata: {name: p}\n');
    expect(only.fromFile).toEqual([]);
    expect(only.read).toEqual(placementRead());
  });
});

import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../src/kube/api/apply.js';
import { accessLines, DEFAULT_RUNNER_IMAGE, runnerAccess, runnerJob, runnerJobName } from '../../../src/rollout/in-cluster/manifests.js';
import type { RolloutState } from '../../../src/rollout/types.js';
import { VERSION } from '../../../src/version.js';

const state = (name: string, nodes: string[], replace: 'wait' | 'delete-node' = 'wait') =>
  ({
    spec: {
      name,
      context: 'c',
      nodeSelectors: [],
      nodeNames: [],
      maxUnavailable: 1,
      replace,
      drain: { force: false, deleteEmptyDirData: false, timeoutMs: 1 },
      health: { passes: 1, intervalMs: 1, timeoutMs: 1 },
    },
    phase: 'Pending',
    nodes: nodes.map((n) => ({ name: n, priority: 0, phase: 'waiting', total: 0, evicted: 0, ignored: 0, failed: 0, cordonedByUs: false })),
    log: [],
    updatedAt: '',
  }) as RolloutState;

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
const rulesOf = (objects: Manifest[]) =>
  objects.flatMap((o) => ((o as { rules?: Rule[] }).rules ?? []).map((r) => ({ ns: o.metadata.namespace ?? '*', ...r })));
const grants = (objects: Manifest[], resource: string, verb: string, ns = '*') =>
  rulesOf(objects).some((r) => r.resources.includes(resource) && r.verbs.includes(verb) && (r.ns === ns || r.ns === '*'));

describe('the in-cluster runner’s objects', () => {
  it('grant what a drain, a replacement, the record, the Lease and the Events need, and nothing on secrets', () => {
    const objects = runnerAccess('fleetdeck-system', false);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Namespace/fleetdeck-system',
      'ServiceAccount/fleetdeck-rollout-runner',
      'ClusterRole/fleetdeck-rollout-runner',
      'ClusterRoleBinding/fleetdeck-rollout-runner',
      'Role/fleetdeck-rollout-runner',
      'RoleBinding/fleetdeck-rollout-runner',
      'Role/fleetdeck-rollout-runner',
      'RoleBinding/fleetdeck-rollout-runner',
    ]);
    for (const [res, verb] of [
      ['nodes', 'patch'],
      ['pods', 'delete'],
      ['pods/eviction', 'create'],
      ['poddisruptionbudgets', 'list'],
    ])
      expect(grants(objects, res!, verb!)).toBe(true);
    expect(grants(objects, 'configmaps', 'update', 'kube-system')).toBe(true);
    expect(grants(objects, 'leases', 'create', 'kube-system')).toBe(true);
    expect(grants(objects, 'events', 'create', 'default')).toBe(true);
    expect(grants(objects, 'nodes', 'delete')).toBe(false);
    expect(rulesOf(objects).some((r) => r.resources.includes('secrets') || r.verbs.includes('*') || r.resources.includes('*'))).toBe(false);
    // Deleting nodes only for a rollout that does.
    expect(grants(runnerAccess('fleetdeck-system', true), 'nodes', 'delete')).toBe(true);
    const bindings = objects.filter((o) => o.kind.endsWith('Binding')) as unknown as { subjects: { name: string; namespace: string }[] }[];
    for (const b of bindings)
      expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'fleetdeck-rollout-runner', namespace: 'fleetdeck-system' }]);
  });

  it('run the rollout’s resume as the runner, never on a node it drains, with the pod’s name for the Lease', () => {
    const job = runnerJob(state('rollout-a', ['w1', 'w2']), { namespace: 'ns', image: 'reg/fleetdeck:1' }, 2) as unknown as {
      metadata: { name: string; namespace: string; labels: Record<string, string> };
      spec: {
        backoffLimit: number;
        template: { spec: Record<string, unknown> & { containers: { image: string; args: string[]; env: { name: string }[] }[] } };
      };
    };
    expect(job.metadata).toMatchObject({
      name: 'runner-rollout-a-2',
      namespace: 'ns',
      labels: { 'fleetdeck.io/rollout': 'rollout-a', 'app.kubernetes.io/managed-by': 'fleetdeck' },
    });
    const pod = job.spec.template.spec;
    expect(pod.serviceAccountName).toBe('fleetdeck-rollout-runner');
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers[0]).toMatchObject({
      image: 'reg/fleetdeck:1',
      args: ['rollout', 'resume', 'rollout-a', '--runner', '--metrics-listen', '0.0.0.0:9464'],
      ports: [{ name: 'metrics', containerPort: 9464 }],
    });
    // Scraped where Prometheus discovers pods by the usual annotations.
    expect((job.spec.template as unknown as { metadata: { annotations: Record<string, string> } }).metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9464',
      'prometheus.io/path': '/metrics',
    });
    expect(pod.containers[0]!.env.map((e) => e.name)).toContain('POD_NAME');
    expect(JSON.stringify(pod.affinity)).toContain(
      '[{"key":"metadata.name","operator":"NotIn","values":["w1"]},{"key":"metadata.name","operator":"NotIn","values":["w2"]}]',
    );
    expect(job.spec.backoffLimit).toBeGreaterThan(1);
    expect(DEFAULT_RUNNER_IMAGE).toBe(`ghcr.io/fleetdeck/fleetdeck:v${VERSION}`);
  });

  it('are named within 63 characters, and shown in the dry run with their rules', () => {
    const long = `rollout-${'x'.repeat(55)}`;
    expect(runnerJobName(long, 12).length).toBeLessThanOrEqual(63);
    expect(runnerJobName(long, 12)).toMatch(/-12$/);
    const lines = accessLines(runnerAccess('fleetdeck-system', false));
    expect(lines).toContain(
      'ClusterRole fleetdeck-rollout-runner: nodes: get,list,watch,patch; pods: get,list,watch,delete; pods/eviction: create; poddisruptionbudgets.policy: get,list,watch; daemonsets.apps: get',
    );
    expect(lines).toContain(
      'Role kube-system/fleetdeck-rollout-runner: configmaps: get,list,watch,update,patch; leases.coordination.k8s.io: get,list,watch,create,update,patch,delete; events: create,patch',
    );
  });
});

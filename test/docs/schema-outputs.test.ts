/**
 * The schemas against the documents the report code builds, without a cluster: `status`'s from a
 * filled fleet store, the fleet rows of `get`, `workloads`' rows and `policy check` from what a
 * control plane holds, `backup` and `restore`, `certs` and `rollout list`. (The commands' own tests
 * check their real output against the same schemas.)
 */
import { describe, it } from 'vitest';
import type { ApiObject } from '../../src/kube/api/api-resources.js';
import type { PlacementRead } from '../../src/kube/nova/placement-read.js';
import { checkPolicy } from '../../src/placement/policy-check.js';
import { workloadRows } from '../../src/placement/rows.js';
import { backupJson, restoreJson } from '../../src/report/backup.js';
import type { CertInventory } from '../../src/report/certs/inventory.js';
import { certsJson } from '../../src/report/certs/table.js';
import { fleetJson, fleetRows } from '../../src/report/fleet-output.js';
import { statusJson } from '../../src/report/status.js';
import { rolloutRows } from '../../src/commands/rollout/list.js';
import type { RolloutState } from '../../src/rollout/types.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { novaFleet } from '../helpers/screens/fleets.js';

const NOW = Date.parse('2026-11-26T11:50:30Z');

describe('the documents the report code builds match their schemas', () => {
  it('status, get nodes, get pods: from a fleet store with problems in it', () => {
    const state = novaFleet().getState();
    expectMatchesSchema(statusJson(state, NOW), 'status');
    expectMatchesSchema(fleetJson('nodes', fleetRows('nodes', state), NOW), 'get-nodes');
    expectMatchesSchema(fleetJson('pods', fleetRows('pods', state), NOW), 'get-pods');
  });

  const cluster = (name: string): ApiObject => ({
    apiVersion: 'cluster.elotl.co/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const configMap = (name: string, labels: Record<string, string> = {}): ApiObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'shop', labels },
    data: { a: 'b' },
  });
  const placed = configMap('placed', { 'nova.elotl.co/target-cluster': 'w1' });
  const read: PlacementRead = {
    cp: {
      clusters: [cluster('w1'), cluster('w2')],
      policies: [],
      groups: [],
      namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'a' } } }],
      objects: [placed, configMap('loose')],
    },
    events: [],
    copies: [
      { context: 'kind-workload-1', clusterName: 'w1', objects: [placed] },
      { context: 'kind-workload-2', clusterName: 'w2', objects: [] },
    ],
  };

  it('workloads and policy check: from what a control plane holds', () => {
    expectMatchesSchema({ workloads: workloadRows(read) }, 'workloads');
    const policy: ApiObject = {
      apiVersion: 'policy.elotl.co/v1alpha1',
      kind: 'SchedulePolicy',
      metadata: { name: 'loose' },
      spec: {
        namespaceSelector: { matchLabels: { team: 'a' } },
        clusterSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'w2' } },
      },
    };
    expectMatchesSchema(checkPolicy(read, policy), 'policy-check');
  });

  it('backup and restore', () => {
    expectMatchesSchema(
      backupJson({
        file: '/home/me/nova.yaml',
        context: 'nova',
        includeSecrets: false,
        result: {
          objects: [placed],
          kinds: [
            { kind: 'Secret', apiVersion: 'v1', objects: 0, skipped: [{ reason: 'data not included (--include-secrets)', count: 1 }] },
          ],
          unavailable: [],
        },
      }),
      'backup',
    );
    expectMatchesSchema(
      restoreJson({
        ok: true,
        dryRun: false,
        file: '/home/me/nova.yaml',
        context: 'nova',
        plan: [
          {
            ref: 'ConfigMap team-a/cfg',
            apiVersion: 'v1',
            kind: 'ConfigMap',
            namespace: 'team-a',
            name: 'cfg',
            action: 'update',
            changes: [
              { path: 'data.mode', from: '"green"', to: '"blue"' },
              { path: 'data.added', to: '"x"' },
            ],
            result: 'configured',
          },
          { ref: 'Cluster w1', apiVersion: 'cluster.elotl.co/v1alpha1', kind: 'Cluster', name: 'w1', action: 'unchanged', kept: 'exists' },
          {
            ref: 'Namespace team-a',
            apiVersion: 'v1',
            kind: 'Namespace',
            name: 'team-a',
            action: 'create',
            result: 'failed',
            error: 'HTTP 403',
          },
        ],
      }),
      'restore',
    );
  });

  it('certs: a certificate, a missing one, a key without expiry', () => {
    const inv: CertInventory = {
      rows: [
        {
          name: 'apiserver',
          group: 'control-plane',
          subject: 'CN=kube-apiserver',
          issuer: 'CN=nova-ca',
          sans: ['DNS:apiserver'],
          serial: '0A1B',
          notBefore: NOW - 86_400_000,
          notAfter: NOW + 3650 * 86_400_000,
          usedBy: 'kube-apiserver (serving)',
          source: 'Secret elotl/nova-apiserver-certs: apiserver.crt',
        },
        { name: 'init-kubeconfig', group: 'agent-init', sans: [], usedBy: 'nova-agent in w2', source: 'Secret', problem: 'missing (…)' },
        { name: 'service-account-key', group: 'control-plane', sans: [], noExpiry: true, usedBy: 'kube-apiserver', source: 'Secret' },
      ],
      skipped: [{ context: 'gke-prod', user: 'gke-user', method: 'exec plugin' }],
    };
    expectMatchesSchema(certsJson(inv, NOW, 30), 'certs');
  });

  it('rollout list: a rollout held by a pod, one by nobody', () => {
    const state = (name: string, phase: RolloutState['phase']): RolloutState => ({
      spec: {
        name,
        context: 'kind-workload-1',
        nodeSelectors: [{ selector: 'role=worker', priority: 10 }],
        nodeNames: [],
        maxUnavailable: 1,
        replace: 'uncordon',
        drain: { force: false, deleteEmptyDirData: false, timeoutMs: 900_000 },
        health: { passes: 3, intervalMs: 5_000, timeoutMs: 600_000 },
      },
      phase,
      nodes: [{ name: 'n1', priority: 10, phase: 'done', total: 1, evicted: 1, ignored: 0, failed: 0, cordonedByUs: true }],
      log: [{ time: '2026-11-26T11:00:00.000Z', message: 'created' }],
      updatedAt: '2026-11-26T11:50:00.000Z',
    });
    const leases = new Map([
      ['r1', { holderIdentity: 'pod/fleetdeck-runner-x', renewTime: '2026-11-26T11:50:28.000000Z', leaseDurationSeconds: 30 }],
    ]);
    expectMatchesSchema(
      {
        context: null,
        contexts: ['kind-workload-1', 'kind-workload-2'],
        rollouts: rolloutRows('kind-workload-1', [state('r1', 'Running'), state('r2', 'Completed')], leases, NOW),
        errors: [
          {
            context: 'kind-workload-2',
            error: 'cannot list rollouts (ConfigMaps in fleetdeck-system labelled fleetdeck.io/rollout): connection refused',
          },
        ],
      },
      'rollout-list',
    );
  });
});

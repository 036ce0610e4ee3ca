/**
 * What the Workloads tab reads, as a control plane and two workload clusters would answer: two
 * Clusters with their room, a Divide policy, a Deployment divided 3 + 7 over w1 and w2 with its
 * copies, one pinned by annotation, and one no cluster can fit (pending, with the scheduler's
 * Warning). The feed makes the rows and checklists from it as from a real read.
 */
import type { ApiObject } from '../../../src/kube/api/api-resources.js';
import type { PlacementRead } from '../../../src/kube/nova/placement-read.js';
import { workloadsFeed } from '../../../src/feeds/workloads.js';
import type { Actions as AppActions } from '../../../src/store/actions.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';
import { startFeed } from '../feeds/feeds.js';

const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'shop', ...extra });

function cluster(name: string, cpu: string): ApiObject {
  const nodes = Object.fromEntries([1, 2, 3].map((i) => [`${name}-node-${i}`, { cpu, memory: String(8 * 2 ** 30) }]));
  return {
    apiVersion: 'cluster.elotl.co/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    status: { conditions: [{ type: 'Ready', status: 'True' }], availableResources: nodes, nodeTaints: {} },
  };
}

function deployment(name: string, replicas: number, cpu: string, m: Record<string, unknown> = {}, ready = replicas): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(name, m),
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu } } }] },
      },
    },
    status: { replicas, readyReplicas: ready },
  };
}

const spread = JSON.stringify({
  policy: 'split',
  shares: [
    { cluster: 'w1', replicas: 3, topologyValue: 'w1' },
    { cluster: 'w2', replicas: 7, topologyValue: 'w2' },
  ],
});

export function placementRead(): PlacementRead {
  const web = deployment('web', 10, '100m', { labels: { placement: 'split' }, annotations: { 'nova.elotl.co/spread-targets': spread } });
  const copy = (replicas: number) => {
    const c = deployment('web', replicas, '100m', { labels: { placement: 'split' } });
    return c;
  };
  return {
    cp: {
      clusters: [cluster('w1', '3900m'), cluster('w2', '3900m')],
      policies: [
        {
          apiVersion: 'policy.elotl.co/v1alpha1',
          kind: 'SchedulePolicy',
          metadata: { name: 'split', creationTimestamp: '2026-11-27T10:00:00Z' },
          spec: {
            resourceSelectors: { labelSelectors: [{ matchLabels: { placement: 'split' } }] },
            spreadConstraints: {
              spreadMode: 'Divide',
              topologyKey: 'kubernetes.io/metadata.name',
              percentageSplit: [
                { topologyValue: 'w1', percentage: 30 },
                { topologyValue: 'w2', percentage: 70 },
              ],
            },
          },
        },
        {
          apiVersion: 'policy.elotl.co/v1alpha1',
          kind: 'SchedulePolicy',
          metadata: { name: 'big', creationTimestamp: '2026-11-27T11:00:00Z' },
          spec: { resourceSelectors: { labelSelectors: [{ matchLabels: { placement: 'big' } }] } },
        },
      ],
      groups: [],
      namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }],
      objects: [
        web,
        deployment('pinned', 2, '100m', {
          labels: { 'nova.elotl.co/target-cluster': 'w2' },
          annotations: { 'nova.elotl.co/cluster': 'w2' },
        }),
        deployment('huge', 1, '64', { labels: { placement: 'big' } }, 0),
      ],
    },
    events: [],
    copies: [
      { context: 'kind-workload-1', clusterName: 'w1', objects: [copy(3)] },
      { context: 'kind-workload-2', clusterName: 'w2', objects: [copy(7), deployment('pinned', 2, '100m')] },
    ],
  };
}

/** The Workloads tab's actions over `store`, its feed reading `placementRead()`. */
export function workloadsActions(store: FleetStore, read: () => PlacementRead = placementRead): NonNullable<AppActions['workloads']> {
  const feed = startFeed(store, workloadsFeed({ read: async () => ({ context: 'nova', read: read() }) }));
  return feed.actions as NonNullable<AppActions['workloads']>;
}

/** Clusters, policies and objects for the placement tests. */
import type { ClusterView, PolicyView, WorkloadView } from '../../src/placement/types.js';

const GiB = 2 ** 30;

/** A Ready cluster of `nodes` nodes with `cpu` millicores and 8 GiB free each. */
export function cluster(name: string, nodes: number, cpu: number, labels: Record<string, string> = {}): ClusterView {
  return {
    name,
    labels: { 'kubernetes.io/metadata.name': name, ...labels },
    ready: true,
    standby: false,
    nodes: Array.from({ length: nodes }, (_, i) => ({ name: `${name}-n${i}`, available: { cpu, memory: 8 * GiB }, taints: [] })),
  };
}

export function deployment(
  name: string,
  replicas: number,
  cpu: number,
  labels: Record<string, string> = {},
  annotations: Record<string, string> = {},
): WorkloadView {
  return {
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'team-a', name },
    labels,
    annotations,
    replicas,
    podRequests: { cpu, memory: 256 * 2 ** 20 },
    tolerations: [],
  };
}

export function configMap(name: string, labels: Record<string, string> = {}): WorkloadView {
  return { ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'team-a', name }, labels, annotations: {} };
}

export function policy(name: string, spec: Partial<PolicyView> = {}, created = '2026-01-01T00:00:00Z'): PolicyView {
  return { name, created, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } }, ...spec };
}

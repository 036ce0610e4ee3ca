/** Pod literals for the drain's tests. */
import type { DrainPod } from '../../../src/rollout/drain/filters.js';

export type Owner = 'ReplicaSet' | 'DaemonSet' | 'StatefulSet' | 'Job' | 'none';

/** A pod literal: Running, owned by a ReplicaSet, unless told otherwise. */
export function pod(
  name: string,
  over: {
    ns?: string;
    owner?: Owner;
    phase?: string;
    emptyDir?: boolean;
    mirror?: boolean;
    labels?: Record<string, string>;
    cpu?: string;
    memory?: string;
    deleting?: boolean;
  } = {},
): DrainPod {
  const owner = over.owner ?? 'ReplicaSet';
  return {
    metadata: {
      name,
      namespace: over.ns ?? 'apps',
      uid: `uid-${name}`,
      labels: over.labels ?? { app: name.split('-')[0]! },
      ...(over.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'abc123' } } : {}),
      ...(owner !== 'none'
        ? { ownerReferences: [{ kind: owner, name: `${name.split('-')[0]}-owner`, controller: true, apiVersion: 'apps/v1', uid: 'o1' }] }
        : {}),
      ...(over.deleting ? { deletionTimestamp: '2024-05-01T10:00:00Z' } : {}),
    },
    spec: {
      nodeName: 'node-1',
      containers: [
        { resources: { requests: { ...(over.cpu ? { cpu: over.cpu } : {}), ...(over.memory ? { memory: over.memory } : {}) } } },
      ],
      ...(over.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : { volumes: [{ name: 'cfg' }] }),
    },
    status: { phase: over.phase ?? 'Running' },
  };
}

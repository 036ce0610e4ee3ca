/** Pods as the API returns them, Running and Ready unless told otherwise, for the pod state and tracker tests. */
import type { V1ContainerStatus, V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { podState } from '../../../src/kube/pods/pods.js';

export const created = new Date('2024-05-01T10:00:00Z');

export function cond(type: string, status: string, reason?: string, message?: string): V1PodCondition {
  return { type, status, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

export function cs(name: string, state: V1ContainerStatus['state'], ready = false, restartCount = 0, started?: boolean): V1ContainerStatus {
  return { name, image: 'img', imageID: '', ready, restartCount, state, ...(started !== undefined ? { started } : {}) };
}

export const running = (name = 'app', restarts = 0) => cs(name, { running: { startedAt: created } }, true, restarts, true);

/** A pod literal: Running and Ready unless told otherwise. */
export function pod(
  over: { name?: string; ns?: string; uid?: string; phase?: string; reason?: string; deleting?: boolean; node?: string } & Partial<
    NonNullable<V1Pod['status']>
  > & { containers?: string[]; initContainers?: { name: string; restartPolicy?: string }[] } = {},
): V1Pod {
  const name = over.name ?? 'web-1';
  return {
    metadata: {
      name,
      namespace: over.ns ?? 'default',
      uid: over.uid ?? `uid-${over.ns ?? 'default'}-${name}`,
      creationTimestamp: created,
      ...(over.deleting ? { deletionTimestamp: new Date('2024-05-01T11:00:00Z') } : {}),
    },
    spec: {
      containers: (over.containers ?? ['app']).map((c) => ({ name: c, image: 'img' })),
      ...(over.initContainers ? { initContainers: over.initContainers.map((c) => ({ image: 'img', ...c })) } : {}),
      ...(over.node !== undefined ? { nodeName: over.node } : { nodeName: 'node-1' }),
    },
    status: {
      phase: over.phase ?? 'Running',
      ...(over.reason ? { reason: over.reason } : {}),
      conditions: over.conditions ?? [
        cond('Initialized', 'True'),
        cond('Ready', 'True'),
        cond('ContainersReady', 'True'),
        cond('PodScheduled', 'True'),
      ],
      containerStatuses: over.containerStatuses ?? [running()],
      ...(over.initContainerStatuses ? { initContainerStatuses: over.initContainerStatuses } : {}),
    },
  };
}

export const notReadyConds = [cond('Initialized', 'True'), cond('Ready', 'False', 'ContainersNotReady'), cond('PodScheduled', 'True')];
export const reasonOf = (p: V1Pod) => podState(p).problem?.reason;

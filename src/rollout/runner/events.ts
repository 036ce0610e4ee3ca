/**
 * The Events a run writes, as `kubectl describe` shows them: on each Node it works on (namespace
 * default) and on the rollout's record ConfigMap; reportingComponent fleetdeck, reportingInstance
 * the Lease holder. A repeated Event (DrainBlocked at every retry) is aggregated; one that cannot
 * be written (e.g. 403) is said once in the rollout's log and never stops the rollout.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { EventRecorder, type EventType } from '../../kube/events/event-recorder.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../types.js';

/** The reasons fleetdeck's rollout Events carry (kubectl style). */
export type RolloutEventReason =
  | 'RolloutStarted'
  | 'RolloutResumed'
  | 'NodeCordoned'
  | 'DrainStarted'
  | 'DrainBlocked'
  | 'DrainFailed'
  | 'Drained'
  | 'NodeReplaced'
  | 'NodeDeleted'
  | 'NodeUncordoned'
  | 'ReplacementFailed'
  | 'HealthGatePassed'
  | 'HealthGateFailed'
  | 'RolloutPaused'
  | 'RolloutFailed'
  | 'RolloutAborted'
  | 'RolloutCompleted'
  | 'RolloutHeld'
  | 'RolloutReleased'
  | 'NodeSkipped'
  | 'DrainForced'
  | 'DeadlineExceeded';

export interface RolloutEvents {
  /** An Event on the Node `name` (its uid, when the rollout recorded it). */
  node(name: string, uid: string | undefined, type: EventType, reason: RolloutEventReason, message: string): void;
  /** An Event on the rollout's record ConfigMap. */
  rollout(type: EventType, reason: RolloutEventReason, message: string): void;
  /** Resolves once every Event so far was written (or failed). */
  flush(): Promise<void>;
}

export function rolloutEvents(
  kc: KubeConfig,
  rollout: { name: string; recordUid?: string | undefined },
  instance: string,
  onFailure: (message: string) => void,
): RolloutEvents {
  const recorder = new EventRecorder(kc, { component: 'fleetdeck', instance, onFailure });
  const record = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: ROLLOUT_NAMESPACE,
    name: configMapName(rollout.name),
    ...(rollout.recordUid ? { uid: rollout.recordUid } : {}),
  };
  return {
    node: (name, uid, type, reason, message) =>
      recorder.record({ apiVersion: 'v1', kind: 'Node', name, ...(uid ? { uid } : {}) }, type, reason, message),
    rollout: (type, reason, message) => recorder.record(record, type, reason, message),
    flush: () => recorder.flush(),
  };
}

/** Events that go nowhere (dry runs, tests of the decisions). */
export const noEvents: RolloutEvents = { node: () => {}, rollout: () => {}, flush: async () => {} };

/** What every phase handler of a run gets, and how a node (or its batch) stops the run. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { RolloutMetrics } from '../guards/metrics.js';
import type { Notifier } from '../guards/notify.js';
import type { RolloutGuards } from '../guards/types.js';
import type { RolloutSpec } from '../types.js';
import type { RolloutEvents } from './events.js';
import type { StateWriter } from './writer.js';

export interface RunContext {
  kc: KubeConfig;
  spec: RolloutSpec;
  writer: StateWriter;
  /** Stops on the caller's signal, on an abort seen in the ConfigMap, or on a write that failed for good. */
  signal: AbortSignal;
  /** `wait` replacement: how long to wait for the node to go and a new one to join. */
  replaceTimeoutMs: number;
  /** The Events written on the nodes and the record (never failing the run). */
  events: RolloutEvents;
  /** The spec's guard rails (none for a spec written before them). */
  guards: RolloutGuards;
  /** The webhook's messages (never failing the run). */
  notify: Notifier;
  /** When this run started (epoch ms): node deadlines of nodes a resume picked up count from it. */
  runStart: number;
  /** The runner's Prometheus metrics, when they are served. */
  metrics?: RolloutMetrics | undefined;
}

/** Why a node (or the batch) stopped: `fail` ends the rollout (Failed), `pause` pauses it. */
export class NodeStop extends Error {
  constructor(
    readonly outcome: 'fail' | 'pause',
    message: string,
  ) {
    super(message);
  }
}

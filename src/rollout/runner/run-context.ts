/** What a run works with once it took the rollout: the state's writer, the Events, the notifications, the guard rails. */
import type { KubeConfig } from '@kubernetes/client-node';
import { Notifier } from '../guards/notify.js';
import { NO_GUARDS } from '../guards/types.js';
import { DEFAULT_REPLACE_TIMEOUT_MS, type RolloutState } from '../types.js';
import type { RunContext } from './context.js';
import { appendLog } from './decide.js';
import { rolloutEvents } from './events.js';
import { guarded } from './guard-run.js';
import type { Self } from './owner.js';
import type { RunOptions } from './run.js';
import { StateWriter } from './writer.js';
import type { StoredRollout } from '../state.js';

export interface RunStart {
  kc: KubeConfig;
  /** The rollout as the caller had it (its phase says whether this is a start or a resume). */
  state: RolloutState;
  /** The record as claimed by this run. */
  claimed: StoredRollout;
  self: Self;
  opts: RunOptions;
  onState: (state: RolloutState) => void;
  signal: AbortSignal;
  fatal: (err: Error) => void;
  recordUid: string | undefined;
}

/** The run's context; the start (or resume) said as an Event and a notification. */
export function runContext(r: RunStart): RunContext {
  const { kc, state, self, opts } = r;
  const name = state.spec.name;
  const guards = guarded(name, opts.metrics, r.onState);
  const writer = new StateWriter(kc, r.claimed, self, guards.onState, r.fatal);
  // The rollout deadline counts from the start, or from a resume by someone; a runner taking a running rollout over keeps it.
  if (state.phase !== 'Running' || !writer.state.deadlineFrom)
    writer.change((st) => {
      st.deadlineFrom = new Date().toISOString();
    });
  guards.onState(structuredClone(writer.state));
  const events = rolloutEvents(kc, { name, recordUid: r.recordUid }, self.identity, (message) => {
    writer.change((st) => appendLog(st, `${message} (the rollout goes on without them)`));
  });
  const resumed = state.phase !== 'Pending';
  events.rollout(
    'Normal',
    resumed ? 'RolloutResumed' : 'RolloutStarted',
    `Rollout ${name} ${resumed ? 'resumed' : 'started'} by ${self.identity}`,
  );
  const notify = new Notifier(
    writer.state.spec.guards?.notify,
    { rollout: name, context: opts.context ?? writer.state.spec.context },
    (line) => writer.change((st) => appendLog(st, `${line} (the rollout goes on)`)),
  );
  notify.send('start', { total: writer.state.nodes.length, resumed: resumed ? 'yes' : 'no' });
  return {
    kc,
    spec: writer.state.spec,
    writer,
    signal: r.signal,
    replaceTimeoutMs: opts.replaceTimeoutMs ?? DEFAULT_REPLACE_TIMEOUT_MS,
    events,
    guards: writer.state.spec.guards ?? NO_GUARDS,
    notify,
    metrics: opts.metrics,
    runStart: Date.now(),
  };
}

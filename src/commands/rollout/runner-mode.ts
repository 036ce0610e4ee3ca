/**
 * `fleetdeck rollout resume NAME --runner`: what the in-cluster Job runs. Its exit code tells
 * the Job whether to start another pod: 0 once the rollout has an outcome (completed, failed,
 * aborted, taken over, or paused for a node, which waits for the operator), 1 when the run was
 * cut off (a signal, the API server lost) or another runner still holds the rollout, so the
 * next pod resumes it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { selfHolder } from '../../rollout/owner-liveness.js';
import { blockingHolder, ownedElsewhereMessage, untilHolderGone } from '../../rollout/ownership.js';
import { readRollout } from '../../rollout/state.js';
import { FINAL_PHASES, OWNER_STALE_MS, type RolloutState } from '../../rollout/types.js';
import type { GlobalOptions } from '../../session/options.js';
import { driveToEnd } from './drive.js';
import { write } from './lines.js';
import type { OutputFormat } from '../../output/format.js';

/** How long a new runner waits for the previous one's ownership to expire (a killed pod renews nothing). */
const TAKEOVER_WAIT_MS = 2 * OWNER_STALE_MS + 10_000;

/** Did the run end because it was cut off (resumable by the next pod), rather than with an outcome? */
export function cutOff(final: RolloutState): boolean {
  return final.phase === 'Paused' && /^(interrupted|stopped:)/.test(final.message ?? '');
}

export async function runAsRunner(
  kc: KubeConfig,
  name: string,
  context: string,
  d: { output: OutputFormat; ascii: boolean; metricsListen?: string | undefined },
  opts: GlobalOptions,
): Promise<number> {
  const self = selfHolder().identity;
  let waited = false;
  for (;;) {
    const stored = await readRollout(kc, name);
    if (!stored) {
      write(`rollout ${name} is not recorded in this cluster: nothing to run`);
      return 0;
    }
    const state = stored.state;
    if (FINAL_PHASES.includes(state.phase)) {
      write(`rollout ${name} is ${state.phase}: nothing to run`);
      return 0;
    }
    const other = await blockingHolder(kc, state, self);
    if (!other) {
      const final = await driveToEnd(kc, state, context, { ...d, forceTakeover: false, metricsBestEffort: true }, opts);
      return cutOff(final) ? 1 : 0;
    }
    // Once: a runner killed a moment ago renews nothing, and its Lease expires within its duration.
    if (waited) {
      write(ownedElsewhereMessage(name, other));
      return 1;
    }
    write(`${ownedElsewhereMessage(name, other)}; waiting for it to stop renewing`);
    await untilHolderGone(kc, state, self, TAKEOVER_WAIT_MS);
    waited = true;
  }
}

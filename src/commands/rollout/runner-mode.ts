/**
 * `fleetdeck rollout resume NAME --runner`: what the in-cluster Job runs. Its exit code tells
 * the Job whether to start another pod: 0 once the rollout has an outcome (completed, failed,
 * aborted, taken over, or paused for a node, which waits for the operator), 1 when the run was
 * cut off (a signal, the API server lost) or another runner still holds the rollout, so the
 * next pod resumes it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { blockingOwner, ownedElsewhereMessage } from '../../rollout/runner/owner.js';
import { readRollout } from '../../rollout/state.js';
import { FINAL_PHASES, OWNER_STALE_MS, type RolloutState } from '../../rollout/types.js';
import type { GlobalOptions } from '../../session/options.js';
import { driveToEnd } from './drive.js';
import { write } from './lines.js';

/** How long a new runner waits for the previous one's ownership to expire (a killed pod renews nothing). */
const TAKEOVER_WAIT_MS = 2 * OWNER_STALE_MS + 10_000;
const POLL_MS = 2_000;

/** Did the run end because it was cut off (resumable by the next pod), rather than with an outcome? */
export function cutOff(final: RolloutState): boolean {
  return final.phase === 'Paused' && /^(interrupted|stopped:)/.test(final.message ?? '');
}

export async function runAsRunner(
  kc: KubeConfig,
  name: string,
  context: string,
  d: { output: 'text' | 'json'; ascii: boolean },
  opts: GlobalOptions,
): Promise<number> {
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  let said = false;
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
    const other = blockingOwner(state, Date.now(), { host: '', pid: -1 });
    if (!other) {
      const final = await driveToEnd(kc, state, context, { ...d, forceTakeover: false }, opts);
      return cutOff(final) ? 1 : 0;
    }
    if (Date.now() > deadline) {
      write(ownedElsewhereMessage(name, other, Date.now()));
      return 1;
    }
    if (!said) write(`${ownedElsewhereMessage(name, other, Date.now())}; waiting for it to stop renewing`);
    said = true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

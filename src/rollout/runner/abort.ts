/** `fleetdeck rollout abort`: phase Aborted, the owner let go, the rollout's cordons undone. */
import os from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { describeError, statusCode } from '../../kube/client.js';
import { uncordon } from '../../kube/nodes.js';
import { readRollout, updateRollout, watchRollouts, type RolloutWatch } from '../state.js';
import { HEARTBEAT_MS, OWNER_STALE_MS, type RolloutState } from '../types.js';
import { appendLog, nodesToUncordon } from './decide.js';
import { blockingOwner, type Self } from './owner.js';

/** Uncordons the nodes the rollout cordoned and did not finish (a node that is gone is skipped). Resolves with those uncordoned. */
async function releaseCordons(kc: KubeConfig, state: RolloutState): Promise<string[]> {
  const done: string[] = [];
  for (const node of nodesToUncordon(state)) {
    try {
      await uncordon(kc, node);
      done.push(node);
    } catch (err) {
      if (statusCode(err) === 404) continue;
      throw new UserError(`cannot uncordon node ${node}: ${describeError(err)}`);
    }
  }
  return done;
}

/** Waits until no live owner holds the rollout (it saw the abort), its heartbeat went stale, or the signal aborts. */
function ownerLetGo(kc: KubeConfig, name: string, self: Self, onState: (s: RolloutState) => void, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + OWNER_STALE_MS + HEARTBEAT_MS;
  return new Promise<void>((resolve) => {
    let w: RolloutWatch | undefined;
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      void w?.stop();
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', done, { once: true });
    w = watchRollouts(
      kc,
      {
        onState: (s) => {
          onState(s);
          if (!blockingOwner(s, Date.now(), self)) done();
        },
        onDeleted: done,
      },
      name,
    );
  });
}

/**
 * `fleetdeck rollout abort`: writes phase Aborted (a live owner sees it in its watch and
 * stops), waits up to 30 s for that owner to let go, then uncordons the nodes the rollout
 * cordoned and did not finish. Resolves with the final state and the nodes uncordoned. Aborting an aborted rollout
 * uncordons again; a completed one cannot be aborted (UserError).
 */
export async function abortRollout(
  kc: KubeConfig,
  name: string,
  onState: (state: RolloutState) => void = () => {},
  signal?: AbortSignal,
  self: Self = { host: os.hostname(), pid: process.pid },
): Promise<{ state: RolloutState; uncordoned: string[] }> {
  const aborted = await updateRollout(kc, name, (s) => {
    if (s.phase === 'Completed') throw new UserError(`rollout ${name} is Completed: there is nothing to abort`);
    if (s.phase !== 'Aborted') {
      s.phase = 'Aborted';
      s.message = `aborted by fleetdeck pid ${self.pid} on ${self.host}`;
      appendLog(s, s.message);
    }
  });
  onState(aborted.state);
  // A live owner stops when its watch sees the phase; wait until it lets go (or its heartbeat goes stale).
  if (blockingOwner(aborted.state, Date.now(), self)) await ownerLetGo(kc, name, self, onState, signal);
  signal?.throwIfAborted();

  const fresh = await readRollout(kc, name);
  if (!fresh) throw new UserError(`rollout ${name} is gone (its ConfigMap was deleted)`);
  const released = await releaseCordons(kc, fresh.state);
  const res = await updateRollout(kc, name, (s) => {
    for (const x of s.nodes) if (released.includes(x.name)) x.cordonedByUs = false;
    appendLog(s, released.length ? `uncordoned ${released.join(', ')} (cordoned by the rollout, not finished)` : 'no node to uncordon');
  });
  onState(res.state);
  return { state: res.state, uncordoned: released };
}

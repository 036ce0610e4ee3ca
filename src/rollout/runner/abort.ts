/** `fleetdeck rollout abort`: phase Aborted, the owner let go, the rollout's cordons undone. */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { describeError, statusCode } from '../../kube/transport/client.js';
import { listLabeledNodes, uncordon } from '../../kube/nodes/nodes.js';
import { selfHolder } from '../owner-liveness.js';
import { blockingHolder, untilHolderGone } from '../ownership.js';
import { readRollout, updateRollout } from '../state.js';
import { OWNER_STALE_MS, RENEW_MS, type RolloutState } from '../types.js';
import { abortDoneText, abortNodes, type AbortNodes } from './abort-nodes.js';
import { appendLog } from './decide.js';
import { clearNodeMarks } from './marks.js';
import { rolloutEvents } from './events.js';
import type { Self } from './owner.js';

/** The rollout's unfinished nodes sorted by what abort does with them, from one list of the cluster's nodes. */
export async function readAbortNodes(kc: KubeConfig, state: RolloutState): Promise<AbortNodes> {
  const nodes = await listLabeledNodes(kc);
  return abortNodes(state, new Map(nodes.map((n) => [n.name, { unschedulable: n.unschedulable }])));
}

/** What abort did: the nodes it uncordoned, and what it found and left alone. */
export type AbortResult = Omit<AbortNodes, 'uncordon'> & { uncordoned: string[] };

/**
 * Uncordons the nodes the rollout cordoned and did not finish that are still cordoned; a node
 * uncordoned or deleted meanwhile is reported as such, not as uncordoned.
 */
async function releaseCordons(kc: KubeConfig, state: RolloutState): Promise<AbortResult> {
  const { uncordon: todo, ...found } = await readAbortNodes(kc, state);
  const res: AbortResult = { ...found, uncordoned: [] };
  for (const node of todo) {
    try {
      if (await uncordon(kc, node)) res.uncordoned.push(node);
      else res.alreadySchedulable.push(node);
    } catch (err) {
      if (statusCode(err) === 404) res.gone.push(node);
      else throw new UserError(`cannot uncordon node ${node}: ${describeError(err)}`);
    }
  }
  return res;
}

/** The guard rails' marks (the PreferNoSchedule taint, the "before" labels) off every node not done; what could not be done, one line each. */
async function clearMarks(kc: KubeConfig, state: RolloutState): Promise<string[]> {
  const g = state.spec.guards;
  if (!g || (!g.preferNoScheduleTaint && Object.keys(g.labelsBefore).length === 0)) return [];
  const failed: string[] = [];
  for (const n of state.nodes) {
    if (n.phase === 'done') continue;
    await clearNodeMarks(kc, g, n.name).catch((err: unknown) =>
      failed.push(`could not take the rollout's marks off node ${n.name}: ${describeError(err)}`),
    );
  }
  return failed;
}

/**
 * `fleetdeck rollout abort`: writes phase Aborted (a live owner sees it in its watch and
 * stops), waits up to 40 s for that owner to let go, then uncordons the nodes the rollout
 * cordoned and did not finish that are still cordoned. Resolves with the final state, the nodes
 * uncordoned, and those found schedulable already, gone, or cordoned by someone else (left so).
 * Aborting an aborted rollout does that again; a completed one cannot be aborted (UserError).
 */
export async function abortRollout(
  kc: KubeConfig,
  name: string,
  onState: (state: RolloutState) => void = () => {},
  signal?: AbortSignal,
  self: Self = selfHolder(),
): Promise<AbortResult & { state: RolloutState }> {
  const aborted = await updateRollout(kc, name, (s) => {
    if (s.phase === 'Completed') throw new UserError(`rollout ${name} is Completed: there is nothing to abort`);
    if (s.phase !== 'Aborted') {
      s.phase = 'Aborted';
      s.message = `aborted by ${self.identity}`;
      appendLog(s, s.message);
    }
  });
  onState(aborted.state);
  // A live holder stops when its watch sees the phase; wait until it lets go (or its Lease expires).
  if (await blockingHolder(kc, aborted.state, self.identity))
    await untilHolderGone(kc, aborted.state, self.identity, OWNER_STALE_MS + RENEW_MS, signal);
  signal?.throwIfAborted();

  const fresh = await readRollout(kc, name);
  if (!fresh) throw new UserError(`rollout ${name} is gone (its ConfigMap was deleted)`);
  const released = await releaseCordons(kc, fresh.state);
  const unmarked = await clearMarks(kc, fresh.state);
  // The rollout holds no cordon on those nodes any more: a second abort leaves them alone.
  const letGo = new Set([...released.uncordoned, ...released.alreadySchedulable, ...released.gone]);
  const res = await updateRollout(kc, name, (s) => {
    for (const x of s.nodes) if (letGo.has(x.name)) x.cordonedByUs = false;
    for (const line of unmarked) appendLog(s, line);
    appendLog(s, `abort: ${abortDoneText(released)}`);
  });
  onState(res.state);
  const events = rolloutEvents(kc, { name, recordUid: fresh.uid }, self.identity, () => {});
  events.rollout('Warning', 'RolloutAborted', `Rollout ${name} aborted by ${self.identity}; ${abortDoneText(released)}`);
  await events.flush();
  return { state: res.state, ...released };
}

/**
 * Runs a rollout when no Navarchos controller does: per node, in plan order, `maxUnavailable`
 * at a time within a priority: cordon → drain → replacement (wait / delete-node / uncordon) →
 * health gate before the next batch. Every transition is written to the rollout's ConfigMap
 * before the next action, so a fleetdeck killed at any point resumes where it stopped; drain
 * progress is written at most every second. The owner writes a heartbeat every 10 s and
 * watches its ConfigMap: a phase Aborted written by `fleetdeck rollout abort` elsewhere stops it.
 *
 * A workflow as DESIGN.md has them: plain async functions with a progress callback and an
 * AbortSignal; the decisions (next batch, gate verdict, replacement) are pure, in plan.ts.
 */
import os from 'node:os';
import { CoreV1Api, type KubeConfig, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError, makeClient, makeJsonClient, statusCode } from '../kube/client.js';
import { waitFor, WaitTimeout } from '../kube/wait.js';
import { ResilientWatch } from '../kube/watch.js';
import { roomCheck, type PodRequests, type RoomCheck } from './drain-filters.js';
import { abortReason, cordon, DrainError, drainNode, dryRunDrain, listNodePods, nodeRooms, roomNeeded, sleep, uncordon, type DrainDryRun, type DrainProgress } from './drain.js';
import {
  appendLog,
  batches,
  formatDuration,
  gateCount,
  healthVerdict,
  liveOwner,
  nextBatch,
  nodesToUncordon,
  replacementVerdict,
  resumedState,
  type Plan,
  type PlannedNode,
  type ReplacementNode,
} from './plan.js';
import { isConflict, readRollout, updateRollout, watchRollouts, writeRollout, type RolloutWatch, type StoredRollout } from './state.js';
import {
  DEFAULT_REPLACE_TIMEOUT_MS,
  FINAL_PHASES,
  HEARTBEAT_MS,
  OWNER_STALE_MS,
  type NodeStatus,
  type RolloutOwner,
  type RolloutSpec,
  type RolloutState,
} from './types.js';

const REQUEST_TIMEOUT_MS = 30_000;
/** Drain progress (counts, blocking budget) reaches the ConfigMap at most this often. */
const PROGRESS_WRITE_MS = 1_000;
/** How long a write keeps retrying an unreachable API server before the runner gives up (the rollout stays resumable). */
const WRITE_GIVE_UP_MS = 60_000;

export interface RunOptions {
  /** Who drives the rollout (default: this host and process). */
  owner?: { host: string; pid: number };
  /** Take over from a live owner (`resume --force-takeover`). */
  forceTakeover?: boolean;
  /** `wait` replacement: how long to wait for the node to go and a new one to join (default 30 min). */
  replaceTimeoutMs?: number;
  heartbeatMs?: number;
}

/** Another fleetdeck aborted the rollout (phase Aborted in the ConfigMap). */
export class RolloutAborted extends Error {
  constructor(message = 'the rollout was aborted') {
    super(message);
    this.name = 'RolloutAborted';
  }
}

/** Another fleetdeck took the rollout over. */
export class RolloutTakenOver extends Error {
  constructor(owner: RolloutOwner) {
    super(`the rollout was taken over by fleetdeck pid ${owner.pid} on ${owner.host}`);
    this.name = 'RolloutTakenOver';
  }
}

/** Why a node (or the batch) stopped: `fail` ends the rollout (Failed), `pause` pauses it. */
class NodeStop extends Error {
  constructor(
    readonly outcome: 'fail' | 'pause',
    message: string,
  ) {
    super(message);
  }
}

const sameOwner = (a: { host: string; pid: number } | undefined, b: { host: string; pid: number }) => a !== undefined && a.host === b.host && a.pid === b.pid;

/** Whether a process of this host with that pid exists (a killed owner on this host is not alive, whatever its heartbeat says). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The owner that keeps others from driving the rollout: one with a heartbeat younger than
 * 30 s — unless it ran on this host and its process is gone (killed), which is not alive.
 */
export function blockingOwner(state: RolloutState, now: number, self: { host: string; pid: number }): RolloutOwner | undefined {
  const o = liveOwner(state, now, self);
  if (!o) return undefined;
  if (o.host === os.hostname() && !pidAlive(o.pid)) return undefined;
  return o;
}


/**
 * The runner's copy of the state and the ConfigMap's resourceVersion. `change` applies a
 * change and reports it at once; `flush` writes it (the runner is the only writer while it
 * owns the rollout, so its copy wins a 409 — unless the fresh state says Aborted or names
 * another owner, which stops the run).
 */
class StateWriter {
  private version = 0;
  private written = 0;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  failure: Error | undefined;
  /** The API server's time at the latest write. */
  serverTime: string | undefined;

  constructor(
    private readonly kc: KubeConfig,
    private stored: StoredRollout,
    private readonly self: { host: string; pid: number },
    private readonly onState: (s: RolloutState) => void,
    private readonly onFatal: (err: Error) => void,
  ) {}

  get state(): RolloutState {
    return this.stored.state;
  }

  node(name: string): NodeStatus {
    const n = this.stored.state.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`node ${name} is not part of rollout ${this.stored.state.spec.name}`);
    return n;
  }

  change(fn: (s: RolloutState) => void): void {
    fn(this.stored.state);
    this.stored.state.updatedAt = new Date().toISOString();
    this.version++;
    this.onState(structuredClone(this.stored.state));
  }

  /** A change written within PROGRESS_WRITE_MS (drain counts). */
  changeSoon(fn: (s: RolloutState) => void): void {
    this.change(fn);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => this.onFatal(err as Error));
    }, PROGRESS_WRITE_MS);
  }

  /** Resolves once the state as it is now is in the ConfigMap. */
  async flush(): Promise<void> {
    const target = this.version;
    while (this.written < target) {
      if (this.failure) throw this.failure;
      this.writing ??= this.writeOnce().finally(() => (this.writing = undefined));
      await this.writing;
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async writeOnce(): Promise<void> {
    const version = this.version;
    const deadline = Date.now() + WRITE_GIVE_UP_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await writeRollout(this.kc, structuredClone(this.stored.state), this.stored.resourceVersion);
        this.stored.resourceVersion = res.resourceVersion;
        if (res.serverTime) this.serverTime = res.serverTime;
        this.written = Math.max(this.written, version);
        return;
      } catch (err) {
        if (isConflict(err)) {
          const fresh = await readRollout(this.kc, this.stored.state.spec.name);
          if (!fresh) throw (this.failure = new UserError(`rollout ${this.stored.state.spec.name} is gone (its ConfigMap was deleted)`));
          if (fresh.state.phase === 'Aborted') throw (this.failure = new RolloutAborted(fresh.state.message ?? 'the rollout was aborted'));
          if (fresh.state.owner && !sameOwner(fresh.state.owner, this.self)) throw (this.failure = new RolloutTakenOver(fresh.state.owner));
          this.stored.resourceVersion = fresh.resourceVersion;
          continue;
        }
        const code = statusCode(err);
        const transient = code === undefined || code >= 500 || code === 429;
        if (!transient || Date.now() > deadline) throw (this.failure = new UserError(`cannot write the rollout's state: ${describeError(err)}`));
        await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * 2 ** attempt)));
      }
    }
  }
}

/**
 * Drives a rollout until it completes, pauses or fails, or is aborted. `state` is the rollout
 * as created or read (its ConfigMap must exist): the runner claims it (phase Running, owner =
 * this process) — refused when it is Completed or Aborted, or when another live fleetdeck
 * owns it (unless `forceTakeover`) — and re-enters every node at its recorded phase. Every
 * change goes to `onState` (a copy) as it happens. The caller's `signal` (Ctrl-C) pauses the
 * rollout, resumable. Resolves with the final state; throws only when the rollout could not
 * be claimed (UserError).
 */
export async function runRollout(
  kc: KubeConfig,
  state: RolloutState,
  opts: RunOptions = {},
  onState: (state: RolloutState) => void = () => {},
  signal?: AbortSignal,
): Promise<RolloutState> {
  const name = state.spec.name;
  const self = opts.owner ?? { host: os.hostname(), pid: process.pid };
  const owner = (): RolloutOwner => ({ ...self, heartbeat: new Date().toISOString() });

  // Claim it: one write, so two fleetdecks cannot both take it (the second one's write conflicts, re-reads, sees a live owner).
  let resumed = false;
  const claimed = await updateRollout(kc, name, (s) => {
    if (FINAL_PHASES.includes(s.phase)) throw new UserError(`rollout ${name} is ${s.phase}: there is nothing to resume`);
    const other = blockingOwner(s, Date.now(), self);
    if (other && !opts.forceTakeover) {
      const age = Math.round((Date.now() - Date.parse(other.heartbeat)) / 1000);
      throw new UserError(`rollout ${name} is being run by fleetdeck pid ${other.pid} on ${other.host} (heartbeat ${age} s ago); watch it with fleetdeck rollout watch ${name}, or take over with --force-takeover`);
    }
    resumed = s.phase !== 'Pending';
    const previous = s.owner && !sameOwner(s.owner, self) ? s.owner : undefined;
    const next = resumedState(s);
    next.phase = 'Running';
    next.owner = owner();
    const taken = other
      ? ` (taken over from pid ${other.pid} on ${other.host})`
      : previous
        ? ` (its previous owner, pid ${previous.pid} on ${previous.host}, is gone)`
        : '';
    appendLog(next, `${resumed ? 'resumed' : 'started'} by fleetdeck pid ${self.pid} on ${self.host}${taken}`);
    return next;
  });

  // Everything below stops on the caller's signal, on an abort seen in the ConfigMap, or on a write that failed for good.
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(signal?.reason instanceof Error ? signal.reason : new Error('interrupted'));
  if (signal?.aborted) onCallerAbort();
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  const fatal = (err: Error) => {
    if (!stop.signal.aborted) stop.abort(err);
  };

  const writer = new StateWriter(kc, claimed, self, onState, fatal);
  onState(structuredClone(writer.state));
  const log = (s: RolloutState, message: string) => appendLog(s, message);

  // The owner's heartbeat, and the ConfigMap watched for an abort or a takeover.
  const heartbeat = setInterval(() => {
    writer.change((s) => {
      if (s.owner) s.owner.heartbeat = new Date().toISOString();
    });
    writer.flush().catch((err: unknown) => fatal(err as Error));
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();
  const watch: RolloutWatch = watchRollouts(
    kc,
    {
      onState: (s) => {
        if (s.phase === 'Aborted') fatal(new RolloutAborted(s.message ?? 'the rollout was aborted'));
        // Listed after our claim: any other owner from now on took the rollout over.
        else if (s.owner && !sameOwner(s.owner, self)) fatal(new RolloutTakenOver(s.owner));
      },
    },
    name,
  );

  const spec: RolloutSpec = writer.state.spec;
  const core = makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS);

  /** One node from its recorded phase up to `validating` (the gate is the batch's). */
  const runNode = async (nodeName: string): Promise<void> => {
    const s = stop.signal;
    let n = writer.node(nodeName);

    if (n.phase === 'waiting') {
      // Recorded before the cordon: a kill between the two leaves a node abort uncordons (harmless) rather than one it forgets.
      let node: V1Node;
      try {
        node = await core.readNode({ name: nodeName });
      } catch (err) {
        const why = statusCode(err) === 404 ? `node ${nodeName} no longer exists` : `cannot read node ${nodeName}: ${describeError(err)}`;
        writer.change((st) => {
          const x = st.nodes.find((y) => y.name === nodeName)!;
          x.phase = 'failed';
          x.error = why;
          log(st, `${nodeName}: ${why}`);
        });
        await writer.flush();
        throw new NodeStop('pause', why);
      }
      s.throwIfAborted();
      writer.change((st) => {
        const x = st.nodes.find((y) => y.name === nodeName)!;
        x.phase = 'cordoned';
        x.cordonedByUs = node.spec?.unschedulable !== true;
        if (node.metadata?.uid) x.uid = node.metadata.uid;
        x.startedAt = new Date().toISOString();
        log(st, `${nodeName}: cordoned${x.cordonedByUs ? '' : ' (it was cordoned already)'}`);
      });
      await writer.flush();
      await cordon(kc, nodeName);
      // Every node there is now was created before that write: wait mode's replacement comes after (written with the next change).
      const after = writer.serverTime;
      if (after) writer.change((st) => (st.nodes.find((y) => y.name === nodeName)!.replaceAfter = after));
      n = writer.node(nodeName);
    }

    if (n.phase === 'cordoned' || n.phase === 'draining') {
      s.throwIfAborted();
      writer.change((st) => {
        const x = st.nodes.find((y) => y.name === nodeName)!;
        x.startedAt ??= new Date().toISOString();
        x.phase = 'draining';
        x.total = 0;
        x.evicted = 0;
        x.ignored = 0;
        x.failed = 0;
        delete x.blockingPdb;
        delete x.error;
        log(st, `${nodeName}: draining`);
      });
      await writer.flush();
      // Resumed from a kill right after the cordon: the server time now is still before any replacement.
      const after = writer.serverTime;
      if (after && !writer.node(nodeName).replaceAfter) writer.change((st) => (st.nodes.find((y) => y.name === nodeName)!.replaceAfter = after));
      const apply = (x: NodeStatus, p: DrainProgress) => {
        x.total = p.total;
        x.evicted = p.evicted + p.deleted;
        x.ignored = p.ignored;
        x.failed = p.failed;
        if (p.blockingPdb) x.blockingPdb = { ...p.blockingPdb };
        else delete x.blockingPdb;
      };
      try {
        const result = await drainNode(
          kc,
          nodeName,
          { force: spec.drain.force, deleteEmptyDirData: spec.drain.deleteEmptyDirData, timeoutMs: spec.drain.timeoutMs },
          (p) => {
            const before = writer.node(nodeName).blockingPdb?.name;
            writer.changeSoon((st) => {
              const x = st.nodes.find((y) => y.name === nodeName)!;
              apply(x, p);
              if (p.blockingPdb && p.blockingPdb.name !== before) {
                log(st, `${nodeName}: eviction blocked by PodDisruptionBudget ${p.blockingPdb.namespace}/${p.blockingPdb.name} (${p.blockingPdb.disruptionsAllowed} disruptions allowed)`);
              }
            });
          },
          s,
        );
        writer.change((st) => {
          const x = st.nodes.find((y) => y.name === nodeName)!;
          apply(x, result.progress);
          delete x.blockingPdb;
          x.phase = 'replacing';
          log(st, `${nodeName}: drained (${x.evicted} evicted, ${x.ignored} ignored); replacement: ${spec.replace}`);
        });
        await writer.flush();
      } catch (err) {
        if (s.aborted) throw abortReason(s);
        const refused = err instanceof DrainError && err.kind === 'refused';
        const message = err instanceof DrainError ? err.message : `drain of node ${nodeName}: ${describeError(err)}`;
        writer.change((st) => {
          const x = st.nodes.find((y) => y.name === nodeName)!;
          if (err instanceof DrainError && err.progress) apply(x, err.progress);
          // The message names the budget that held it up.
          delete x.blockingPdb;
          x.phase = 'failed';
          x.error = message;
          log(st, `${nodeName}: ${message}`);
        });
        await writer.flush();
        throw new NodeStop(refused ? 'fail' : 'pause', message);
      }
      n = writer.node(nodeName);
    }

    if (n.phase === 'replacing') {
      s.throwIfAborted();
      let replacement: string | undefined;
      try {
        // Replacements other nodes of the rollout claimed, read at every check (a batch may wait for several at once).
        const claimed = () => new Set(writer.state.nodes.filter((x) => x.name !== nodeName && x.replacement).map((x) => x.replacement!));
        replacement = await replaceNode(kc, spec, n, writer.state.nodes.map((x) => x.name), claimed, opts.replaceTimeoutMs ?? DEFAULT_REPLACE_TIMEOUT_MS, s);
      } catch (err) {
        if (s.aborted) throw abortReason(s);
        const message = err instanceof WaitTimeout ? `replacement of ${nodeName}: ${err.message}` : `replacement of ${nodeName}: ${describeError(err)}`;
        writer.change((st) => {
          const x = st.nodes.find((y) => y.name === nodeName)!;
          x.error = message;
          log(st, `${nodeName}: ${message}`);
        });
        await writer.flush();
        throw new NodeStop('pause', message);
      }
      writer.change((st) => {
        const x = st.nodes.find((y) => y.name === nodeName)!;
        x.phase = 'validating';
        delete x.error;
        if (replacement) x.replacement = replacement;
        const what = spec.replace === 'uncordon' ? 'uncordoned' : spec.replace === 'delete-node' ? 'Node object deleted' : `replaced by ${replacement}`;
        log(st, `${nodeName}: ${what}`);
      });
      await writer.flush();
    }
  };

  /** The batch's nodes, then the health gate; NodeStop says how the rollout stops. */
  const runBatch = async (names: string[]): Promise<void> => {
    const results = await Promise.allSettled(names.map(runNode));
    stop.signal.throwIfAborted();
    const stops = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    const other = stops.find((e) => !(e instanceof NodeStop));
    if (other) throw other;
    const failed = (stops as NodeStop[]).find((e) => e.outcome === 'fail');
    if (failed) throw failed;
    if (stops.length) throw stops[0];

    writer.change((st) => log(st, `health gate for ${names.join(', ')}: every node Ready and no Pending pod, ${spec.health.passes} time${spec.health.passes === 1 ? '' : 's'} in a row, ${formatDuration(spec.health.intervalMs)} apart`));
    const gate = await healthGate(kc, spec.health, stop.signal);
    stop.signal.throwIfAborted();
    if (!gate.ok) {
      const message = `health gate failed within ${formatDuration(spec.health.timeoutMs)}: ${gate.detail}`;
      writer.change((st) => {
        for (const x of st.nodes) if (names.includes(x.name)) x.error = message;
      });
      throw new NodeStop('pause', message);
    }
    writer.change((st) => {
      const now = new Date().toISOString();
      for (const x of st.nodes) {
        if (!names.includes(x.name)) continue;
        x.phase = 'done';
        x.completedAt = now;
        delete x.error;
      }
      log(st, `health gate passed (${gate.detail}): ${names.join(', ')} done`);
    });
    await writer.flush();
  };

  try {
    for (;;) {
      stop.signal.throwIfAborted();
      const step = nextBatch(writer.state);
      if (step.kind === 'complete') {
        writer.change((st) => {
          st.phase = 'Completed';
          delete st.message;
          delete st.owner;
          log(st, `completed: ${st.nodes.length} node${st.nodes.length === 1 ? '' : 's'} done`);
        });
        await writer.flush();
        return structuredClone(writer.state);
      }
      await runBatch(step.nodes);
    }
  } catch (err) {
    // Let the batch's writes land before the last one.
    if (err instanceof NodeStop) {
      writer.change((st) => {
        st.phase = err.outcome === 'fail' ? 'Failed' : 'Paused';
        st.message = err.message;
        delete st.owner;
        log(st, `${st.phase === 'Failed' ? 'failed' : 'paused'}: ${err.message}${st.phase === 'Paused' ? ` (fleetdeck rollout resume ${name} retries)` : ''}`);
      });
      await writer.flush().catch(() => {});
      return structuredClone(writer.state);
    }
    const reason = stop.signal.aborted ? abortReason(stop.signal) : (err as Error);
    const ended = [reason, writer.failure].find((e) => e instanceof RolloutAborted || e instanceof RolloutTakenOver);
    if (ended) return finishAbortedOrTakenOver(kc, name, self, ended);
    // Interrupted here (Ctrl-C), or a failure of ours (an API server gone for a minute): pause, resumable.
    const interrupted = signal?.aborted === true;
    const message = interrupted ? (reason.message === 'interrupted' ? 'interrupted' : `interrupted: ${reason.message}`) : `stopped: ${describeError(reason)}`;
    writer.change((st) => {
      st.phase = 'Paused';
      st.message = message;
      delete st.owner;
      log(st, `paused: ${message} (fleetdeck rollout resume ${name} continues)`);
    });
    await writer.flush().catch(() => {});
    return structuredClone(writer.state);
  } finally {
    clearInterval(heartbeat);
    writer.stop();
    signal?.removeEventListener('abort', onCallerAbort);
    await watch.stop();
  }
}

/**
 * After an abort seen in the ConfigMap (or a takeover): the runner has stopped (every node's
 * step settled); it gives the ownership back on the fresh state, which keeps its phase
 * Aborted. The abort itself uncordons, once the owner has let go.
 */
async function finishAbortedOrTakenOver(kc: KubeConfig, name: string, self: { host: string; pid: number }, reason: Error): Promise<RolloutState> {
  const fresh = await readRollout(kc, name);
  if (!fresh) throw reason;
  // Taken over: the new owner drives it now.
  if (reason instanceof RolloutTakenOver) return fresh.state;
  const res = await updateRollout(kc, name, (s) => {
    if (sameOwner(s.owner, self)) delete s.owner;
    appendLog(s, `fleetdeck pid ${self.pid} on ${self.host} stopped: ${reason.message}`);
  });
  return res.state;
}

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
  self: { host: string; pid: number } = { host: os.hostname(), pid: process.pid },
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
  if (blockingOwner(aborted.state, Date.now(), self)) {
    const deadline = Date.now() + OWNER_STALE_MS + HEARTBEAT_MS;
    await new Promise<void>((resolve) => {
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

// ---------------------------------------------------------------------------------------------
// Replacement

interface JsonNode {
  metadata?: { name?: string; uid?: string; creationTimestamp?: string; resourceVersion?: string };
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type: string; status: string }[] };
}

const isReady = (n: JsonNode) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** The drained node's replacement, by the spec's mode. Resolves with the new node's name (wait mode). */
async function replaceNode(
  kc: KubeConfig,
  spec: RolloutSpec,
  n: NodeStatus,
  rolloutNodes: readonly string[],
  claimed: () => ReadonlySet<string>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  switch (spec.replace) {
    case 'uncordon':
      await uncordon(kc, n.name);
      return undefined;
    case 'delete-node':
      try {
        await makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).deleteNode({ name: n.name });
      } catch (err) {
        if (statusCode(err) !== 404) throw err;
      }
      return undefined;
    case 'wait': {
      let found: string | undefined;
      await waitFor<JsonNode>({
        kc,
        path: '/api/v1/nodes',
        timeoutMs,
        signal,
        check: (items) => {
          const nodes: ReplacementNode[] = items.map((i) => ({
            name: i.metadata?.name ?? '',
            uid: i.metadata?.uid ?? '',
            ready: isReady(i),
            unschedulable: i.spec?.unschedulable === true,
            created: i.metadata?.creationTimestamp ?? '',
          }));
          const v = replacementVerdict(n, nodes, new Set([...rolloutNodes, ...claimed()]));
          found = v.replacement;
          return { done: v.oldGone && v.replacement !== undefined, detail: v.detail };
        },
      });
      return found;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Health gate

export interface GateResult {
  ok: boolean;
  detail: string;
}

/**
 * Navarchos' health rule — every node Ready and no Pending pod — passed `passes` times in a
 * row, `intervalMs` apart, within `timeoutMs`. The nodes and the Pending pods come from two
 * watches; the checks read what they hold (the first one as soon as both listed).
 */
export async function healthGate(kc: KubeConfig, health: RolloutSpec['health'], signal: AbortSignal, onCheck?: (r: GateResult & { inARow: number }) => void): Promise<GateResult> {
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const nodes = new Map<string, boolean>();
  const pending = new Map<string, string>();
  let listed = 0;
  let onListed: () => void = () => {};
  const bothListed = new Promise<void>((resolve) => (onListed = resolve));
  const markListed = (first: { v: boolean }) => {
    if (first.v) return;
    first.v = true;
    if (++listed === 2) onListed();
  };
  const nodesFirst = { v: false };
  const podsFirst = { v: false };
  let lastError: string | undefined;
  const nodeWatch = new ResilientWatch<JsonNode>({
    kc,
    path: '/api/v1/nodes',
    list: () => json.get('/api/v1/nodes'),
    onList: (items) => {
      nodes.clear();
      for (const n of items) nodes.set(n.metadata?.name ?? '', isReady(n));
      markListed(nodesFirst);
    },
    onEvent: (type, n) => {
      if (type === 'DELETED') nodes.delete(n.metadata?.name ?? '');
      else nodes.set(n.metadata?.name ?? '', isReady(n));
    },
    onError: (m) => (lastError = `watching nodes: ${m}`),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  const fieldSelector = 'status.phase=Pending';
  const key = (p: V1Pod) => `${p.metadata?.namespace}/${p.metadata?.name}`;
  const podWatch = new ResilientWatch<V1Pod>({
    kc,
    path: '/api/v1/pods',
    queryParams: { fieldSelector },
    list: () => json.get('/api/v1/pods', { fieldSelector }),
    onList: (items) => {
      pending.clear();
      for (const p of items) pending.set(p.metadata?.uid ?? '', key(p));
      markListed(podsFirst);
    },
    onEvent: (type, p) => {
      // Leaving Pending arrives as DELETED for a field-selected watch.
      if (type === 'DELETED' || p.status?.phase !== 'Pending') pending.delete(p.metadata?.uid ?? '');
      else pending.set(p.metadata?.uid ?? '', key(p));
    },
    onError: (m) => (lastError = `watching pods: ${m}`),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  nodeWatch.start();
  podWatch.start();
  const deadline = Date.now() + health.timeoutMs;
  let last: GateResult = { ok: false, detail: 'nodes and pods not listed yet' };
  try {
    const timeout = new AbortController();
    const t = setTimeout(() => timeout.abort(new Error('gate timeout')), health.timeoutMs);
    const both = AbortSignal.any([signal, timeout.signal]);
    try {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(abortReason(both));
        both.addEventListener('abort', onAbort, { once: true });
        void bothListed.then(() => {
          both.removeEventListener('abort', onAbort);
          resolve();
        });
      });
      let inARow = 0;
      for (;;) {
        const v = healthVerdict(
          [...nodes].map(([name, ready]) => ({ name, ready })),
          [...pending.values()],
        );
        last = v.ok ? v : { ok: false, detail: lastError ? `${v.detail} (last error: ${lastError})` : v.detail };
        inARow = gateCount(inARow, v.ok);
        onCheck?.({ ...last, inARow });
        if (inARow >= Math.max(1, health.passes)) return { ok: true, detail: `${v.detail}, ${inARow} check${inARow === 1 ? '' : 's'} in a row` };
        if (Date.now() + health.intervalMs > deadline) return { ok: false, detail: last.detail };
        await sleep(health.intervalMs, both);
      }
    } catch (err) {
      if (signal.aborted) throw abortReason(signal);
      if (timeout.signal.aborted) return { ok: false, detail: last.detail };
      throw err;
    } finally {
      clearTimeout(t);
    }
  } finally {
    await Promise.all([nodeWatch.stop(), podWatch.stop()]);
  }
}

// ---------------------------------------------------------------------------------------------
// Dry run

export interface BatchRoom extends RoomCheck {
  priority: number;
  nodes: string[];
}

export interface RolloutDryRun {
  drain: DrainDryRun;
  /** Per batch: would the pods evicted from it fit on the other nodes (with delete-node: also those of the batches before, whose nodes are gone)? */
  room: BatchRoom[];
}

/**
 * What the rollout would do, changing nothing: every pod of every planned node classified by
 * dryRunDrain (evict, ignored DaemonSet, skipped mirror, needs --force, needs
 * --delete-emptydir-data, blocked now by a PDB), and the room check per batch.
 */
export async function dryRunRollout(kc: KubeConfig, spec: RolloutSpec, plan: Plan): Promise<RolloutDryRun> {
  const names = plan.nodes.map((n) => n.name);
  const flags = { force: spec.drain.force, deleteEmptyDirData: spec.drain.deleteEmptyDirData };
  const [drain, rooms, pods] = await Promise.all([
    dryRunDrain(kc, names, flags),
    nodeRooms(kc),
    Promise.all(names.map(async (n) => [n, await listNodePods(kc, n)] as const)),
  ]);
  const podsOf = new Map(pods);
  const need = new Map<string, PodRequests[]>();
  for (const n of drain.nodes) need.set(n.node, roomNeeded(n.pods, podsOf.get(n.node) ?? []));
  const room: BatchRoom[] = [];
  const gone: PlannedNode[] = [];
  for (const batch of batches(plan.nodes, Math.max(1, spec.maxUnavailable))) {
    const draining = spec.replace === 'delete-node' ? [...gone, ...batch] : batch;
    const check = roomCheck(
      draining.flatMap((n) => need.get(n.name) ?? []),
      rooms,
      new Set(draining.map((n) => n.name)),
    );
    room.push({ priority: batch[0]!.priority, nodes: batch.map((n) => n.name), ...check });
    gone.push(...batch);
  }
  return { drain, room };
}

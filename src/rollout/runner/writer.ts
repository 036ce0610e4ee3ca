/**
 * The runner's copy of the state and the ConfigMap's resourceVersion. `change` applies a
 * change and reports it at once; `flush` writes it (the runner is the only writer while it
 * owns the rollout, so its copy wins a 409 — unless the fresh state says Aborted or names
 * another owner, which stops the run).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { describeError, statusCode } from '../../kube/transport/client.js';
import { isConflict } from '../../kube/records/rollout-record.js';
import { readRollout, writeRollout, type StoredRollout } from '../state.js';
import { ownerIdentity, type NodeStatus, type RolloutState } from '../types.js';
import { RolloutAborted, RolloutTakenOver, sameOwner, type Self } from './owner.js';

/** Drain progress (counts, blocking budget) reaches the ConfigMap at most this often. */
const PROGRESS_WRITE_MS = 1_000;
/** How long a write keeps retrying an unreachable API server before the runner gives up (the rollout stays resumable). */
const WRITE_GIVE_UP_MS = 60_000;

export class StateWriter {
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
    private readonly self: Self,
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

  /** A change to one node (and maybe the log). */
  changeNode(name: string, fn: (n: NodeStatus, s: RolloutState) => void): void {
    this.change((s) => fn(s.nodes.find((x) => x.name === name)!, s));
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
      this.writing ??= this.writeOnce().finally(() => {
        this.writing = undefined;
      });
      await this.writing;
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** After a 409: the fresh state's resourceVersion, unless the rollout is gone, aborted or owned by another. */
  private async afterConflict(): Promise<void> {
    const fresh = await readRollout(this.kc, this.stored.state.spec.name);
    if (!fresh) throw this.fail(new UserError(`rollout ${this.stored.state.spec.name} is gone (its ConfigMap was deleted)`));
    if (fresh.state.phase === 'Aborted') throw this.fail(new RolloutAborted(fresh.state.message ?? 'the rollout was aborted'));
    if (fresh.state.owner && !sameOwner(fresh.state.owner, this.self))
      throw this.fail(new RolloutTakenOver(ownerIdentity(fresh.state.owner)));
    this.stored.resourceVersion = fresh.resourceVersion;
  }

  private fail(err: Error): Error {
    this.failure = err;
    return err;
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
          await this.afterConflict();
          continue;
        }
        const code = statusCode(err);
        const transient = code === undefined || code >= 500 || code === 429;
        if (!transient || Date.now() > deadline) throw this.fail(new UserError(`cannot write the rollout's state: ${describeError(err)}`));
        await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * 2 ** attempt)));
      }
    }
  }
}

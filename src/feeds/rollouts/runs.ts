/**
 * What the Rollouts tab started (a run, a resume, an abort), tracked in the slice with its
 * outcome; quitting pauses the rollouts run here (resumable, as after Ctrl-C in `fleetdeck
 * rollout create`) and waits for them to record it.
 */
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import { actionChanged, actionKey, type ActionStatus } from '../../store/rollouts.js';

/** How long quitting waits for the rollouts run here to record their pause. */
export const CLOSE_WAIT_MS = 15_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class RolloutRuns {
  private readonly running = new Set<Promise<unknown>>();
  private readonly quit = new AbortController();
  private stopped = false;

  constructor(private readonly store: FleetStore) {}

  /** Start `work` (given the quit signal), its state in the slice under context/name. */
  track(kind: ActionStatus['kind'], context: string, name: string, work: (signal: AbortSignal) => Promise<unknown>): void {
    const key = actionKey(context, name);
    this.update(key, { kind, state: 'running' });
    let promise: Promise<unknown>;
    try {
      promise = work(this.quit.signal);
    } catch (err) {
      promise = Promise.reject(err);
    }
    this.running.add(promise);
    promise
      .then(
        () => this.update(key, { kind, state: 'done' }),
        (err: unknown) => this.update(key, { kind, state: 'failed', error: message(err) }),
      )
      .finally(() => this.running.delete(promise));
  }

  /** Pause what runs here and wait for it, at most `waitMs`. */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    this.stopped = true;
    this.quit.abort(new Error('fleetdeck quit'));
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  private update(key: string, status: ActionStatus): void {
    if (!this.stopped) updateSlice(this.store, 'rollouts', (s) => actionChanged(s, key, status));
  }
}

import { describeError } from '../../kube/transport/client.js';

/**
 * A keyed work queue in the style of a Kubernetes controller: a key added several times
 * before it is handled is handled once; a key added while it is being handled is handled
 * again afterwards; a failed key is retried with backoff. At most `concurrency` handlers run.
 */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly order: string[] = [];
  private readonly active = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly attempts = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly handle: (key: string) => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly concurrency = 8,
  ) {}

  /** Queue `key` now, or after `delayMs` (a sooner add wins). */
  add(key: string, delayMs = 0): void {
    if (this.stopped) return;
    if (delayMs > 0) {
      if (this.timers.has(key)) return;
      this.timers.set(
        key,
        setTimeout(() => {
          this.timers.delete(key);
          this.add(key);
        }, delayMs),
      );
      return;
    }
    const t = this.timers.get(key);
    if (t) {
      clearTimeout(t);
      this.timers.delete(key);
    }
    if (this.active.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.pending.has(key)) return;
    this.pending.add(key);
    this.order.push(key);
    this.pump();
  }

  /** Forget a key's failure count (e.g. after the object was deleted). */
  forget(key: string): void {
    this.attempts.delete(key);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.order.length = 0;
    this.pending.clear();
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (!this.stopped && this.active.size < this.concurrency && this.order.length > 0) {
      const key = this.order.shift()!;
      this.pending.delete(key);
      this.active.add(key);
      const p: Promise<void> = this.run(key).finally(() => {
        this.running.delete(p);
        this.active.delete(key);
        if (this.dirty.delete(key)) this.add(key);
        this.pump();
      });
      this.running.add(p);
    }
  }

  private async run(key: string): Promise<void> {
    try {
      await this.handle(key);
      this.attempts.delete(key);
    } catch (err) {
      if (this.stopped) return;
      const attempt = (this.attempts.get(key) ?? 0) + 1;
      this.attempts.set(key, attempt);
      if (attempt === 1 || attempt % 10 === 0) this.log(`${this.name} ${key}: ${describeError(err)} (retrying)`);
      this.dirty.delete(key);
      this.add(key, Math.min(30_000, 200 * 2 ** Math.min(attempt, 8)));
    }
  }
}

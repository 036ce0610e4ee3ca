/**
 * Watches of one kind in every context of the session, as Headlamp's useKubeObjectList lists
 * and watches a kind across clusters: one set per context, started and stopped with the
 * contexts, restarted with a new session; what a stopped set still delivers is dropped, and each
 * context's errors stay its own (the feed writes them beside that context's items).
 */
import type { Session } from '../session/session.js';

/** Starts one context's watches; `live()` is false once they were stopped (what they deliver then is dropped). Returns their stop. */
export type StartContext = (context: string, session: Session, live: () => boolean) => () => void;

/** Why one context's watches could not start (the feed writes it beside that context). */
export type ContextFailed = (context: string, error: unknown) => void;

export class PerContext {
  private running = new Map<string, { stop: () => void; live: boolean }>();
  private session: Session | undefined;

  constructor(
    private readonly startOne: StartContext,
    private readonly failed: ContextFailed,
  ) {}

  /** Watch exactly these contexts of `session` (new ones start, gone ones stop); those the session has not are left out. */
  set(contexts: readonly string[], session: Session): void {
    this.session = session;
    const known = new Set(session.contexts.map((c) => c.name));
    const wanted = new Set(contexts.filter((c) => known.has(c)));
    for (const name of [...this.running.keys()]) if (!wanted.has(name)) this.stopOne(name);
    for (const name of wanted) if (!this.running.has(name)) this.startContext(name, session);
  }

  /** Every context's watches again, with the new session's KubeConfigs: these contexts (those it has). */
  restart(contexts: readonly string[], session: Session): void {
    this.stop();
    this.set(contexts, session);
  }

  stop(): void {
    for (const name of [...this.running.keys()]) this.stopOne(name);
  }

  contexts(): string[] {
    return [...this.running.keys()];
  }

  current(): Session | undefined {
    return this.session;
  }

  private startContext(name: string, session: Session): void {
    // Registered first: a watch may answer at once.
    const slot = { stop: () => {}, live: true };
    this.running.set(name, slot);
    try {
      slot.stop = this.startOne(name, session, () => slot.live && this.running.get(name) === slot);
    } catch (err) {
      this.running.delete(name);
      this.failed(name, err);
    }
  }

  private stopOne(name: string): void {
    const slot = this.running.get(name);
    if (!slot) return;
    slot.live = false;
    this.running.delete(name);
    slot.stop();
  }
}

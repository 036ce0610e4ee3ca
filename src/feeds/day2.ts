/**
 * The Install tab's Day 2 feed: the menu of day-2 operations (src/day2/registry.ts, loaded when
 * the page first opens), each one's plan and its live rows into the day2 slice, and the control
 * plane's facts (the last backup made here, the installed bundle when recorded). The control
 * plane is the session's fleet's (its context from the kubeconfig or the file the install wrote).
 * Confirming a plan that writes is refused under --read-only with the gate's line, before anything runs.
 */
import { fleetFilePath } from '../config/fleet-config.js';
import type { Day2Fleet, Day2Operation, Day2Target } from '../day2/operation.js';
import type { Day2Registry } from '../day2/registry.js';
import { contextInfos } from '../kube/config/kubeconfig.js';
import { fleetProblemLine } from '../kube/fleet/fleet.js';
import { refusalOf } from '../kube/transport/gate.js';
import type { Session } from '../session/session.js';
import type { CertsActions } from '../store/actions.js';
import { day2Answer, day2Busy, day2Closed, type Day2Entry, day2Facts, day2Opened, day2Stage, type Day2Stage } from '../store/day2.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { type FeedFactory, type HeldActions, heldSession } from './feed.js';

export interface Day2FeedOptions {
  /** The operations (default: the real registry, loaded when the page first opens). */
  registry?: () => Promise<Day2Registry> | Day2Registry;
  /** The Certificates reads, shown with the page (their nearest expiry is one of its facts). */
  certs?: CertsActions;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const defaultRegistry = async (): Promise<Day2Registry> => (await import('../day2/registry.js')).day2Registry();

/** The fleet's control plane in this session, or why there is none. */
export function controlPlaneOf(session: Session): Day2Target | string {
  const context = session.fleet?.controlPlaneContext;
  if (!context) return 'no fleet is defined: install one first (the Install tab, enter)';
  const problem = fleetProblemLine(session.fleet);
  if (problem) return problem;
  if (!contextInfos(session.config).some((c) => c.name === context))
    return `the control plane's context "${context}" is in no kubeconfig (is it installed?)`;
  return { context, kc: session.kc(context), ...fleetOf(session) };
}

/** The fleet's other clusters, when every one of them is in the kubeconfig (renewal and upgrade need them all). */
function fleetOf(session: Session): { fleet?: Day2Fleet } {
  const fleet = session.fleet;
  if (!fleet) return {};
  try {
    return {
      fleet: {
        hosting: { context: fleet.hostingContext, kc: session.kc(fleet.hostingContext) },
        workloads: fleet.workloads.map((w) => ({ ...w, kc: session.kc(w.context) })),
        namespace: fleet.namespace,
        fleetFile: fleetFilePath(),
      },
    };
  } catch {
    return {};
  }
}

const entryOf = (op: Day2Operation): Day2Entry => ({
  id: op.id,
  label: op.label,
  inputs: op.unavailable ? [] : op.inputs(),
  ...(op.writes ? { writes: op.writes } : {}),
  ...(op.unavailable ? { unavailable: op.unavailable } : {}),
});

/** The gate's line when confirming an entry that writes is refused (--read-only). */
const refusal = (session: Session, entry: Day2Entry | undefined) => (entry?.writes ? refusalOf(session, entry.writes.action) : undefined);

/** The facts into the slice: the control plane, the last backup made here, the installed bundle when recorded. */
async function readFacts(store: FleetStore, reg: Day2Registry, session: Session, signal: AbortSignal): Promise<void> {
  const target = controlPlaneOf(session);
  const last = reg.lastBackup();
  updateSlice(store, 'day2', (s) =>
    day2Facts(s, {
      ...(typeof target === 'object' ? { context: target.context } : {}),
      ...(last ? { lastBackup: { file: last.file, at: last.at } } : {}),
    }),
  );
  if (typeof target === 'object' && reg.installedBundle) {
    const bundle = await reg.installedBundle(target, signal).catch(() => undefined);
    if (bundle) updateSlice(store, 'day2', (s) => day2Facts(s, { bundle }));
  }
}

/** The Day 2 page's work: one operation planned or run at a time, its answers for a stage left since dropped. */
class Day2Page {
  private loaded: Promise<Day2Registry> | undefined;
  private readonly quit = new AbortController();
  /** The operation under way (its outcome written to the slice), until it ends. */
  private running: Promise<void> = Promise.resolve();
  private current: AbortController | undefined;

  constructor(
    private readonly store: FleetStore,
    private readonly session: () => Session,
    private readonly opts: Day2FeedOptions,
  ) {}

  private registry(): Promise<Day2Registry> {
    this.loaded ??= Promise.resolve((this.opts.registry ?? defaultRegistry)());
    return this.loaded;
  }

  private get slice() {
    return this.store.getState().day2;
  }

  private set(stage: Day2Stage): number {
    this.current?.abort();
    this.current = undefined;
    updateSlice(this.store, 'day2', (s) => day2Stage(s, stage));
    return this.slice.seq;
  }

  private answer(seq: number, stage: Day2Stage): void {
    updateSlice(this.store, 'day2', (s) => day2Answer(s, seq, stage));
  }

  private signal(): AbortSignal {
    this.current = new AbortController();
    return AbortSignal.any([this.current.signal, this.quit.signal]);
  }

  private facts = (reg: Day2Registry) => readFacts(this.store, reg, this.session(), this.quit.signal);

  private async operation(id: string): Promise<Day2Operation> {
    const op = (await this.registry()).operations.find((o) => o.id === id);
    if (!op) throw new Error(`no day-2 operation "${id}"`);
    return op;
  }

  private entry(id: string): Day2Entry | undefined {
    return this.slice.entries.find((e) => e.id === id);
  }

  open(): void {
    this.opts.certs?.show('day2');
    void this.registry().then(
      (reg) => {
        updateSlice(this.store, 'day2', (s) => day2Opened(s, reg.operations.map(entryOf), {}));
        return this.facts(reg);
      },
      (err: unknown) => {
        updateSlice(this.store, 'day2', (s) => day2Opened(s, [], {}));
        this.set({ stage: 'error', id: '', error: `the day-2 operations could not load: ${messageOf(err)}` });
      },
    );
  }

  close(): void {
    this.opts.certs?.hide('day2');
    updateSlice(this.store, 'day2', day2Closed);
  }

  plan(id: string, inputs: Record<string, string>): void {
    if (day2Busy(this.slice)) return;
    const seq = this.set({ stage: 'planning', id, inputs });
    const target = controlPlaneOf(this.session());
    if (typeof target === 'string') return this.answer(seq, { stage: 'error', id, error: target });
    const sig = this.signal();
    void this.operation(id)
      .then((op) => op.plan(target, inputs, sig))
      .then(
        (p) => {
          const refused = p.todo ? refusal(this.session(), this.entry(id)) : undefined;
          this.answer(seq, { stage: 'plan', id, inputs, lines: p.lines, todo: p.todo, ...(refused ? { refused } : {}) });
        },
        (err: unknown) => this.answer(seq, { stage: 'error', id, error: messageOf(err) }),
      );
  }

  run(): void {
    const s = this.slice.stage;
    if (s.stage !== 'plan' || !s.todo) return;
    const { id, inputs } = s;
    // Under --read-only the plan stays, with the gate's one line.
    const refused = refusal(this.session(), this.entry(id));
    if (refused) return this.answer(this.slice.seq, { ...s, refused });
    const target = controlPlaneOf(this.session());
    if (typeof target === 'string') return this.answer(this.slice.seq, { stage: 'error', id, error: target });
    const seq = this.set({ stage: 'running', id, inputs, items: [] });
    const sig = this.signal();
    this.running = this.operation(id)
      .then((op) => op.run(target, inputs, (items) => this.answer(seq, { stage: 'running', id, inputs, items }), sig))
      .then(
        (o) =>
          this.answer(seq, {
            stage: 'done',
            id,
            inputs,
            items: o.steps,
            ok: o.ok,
            summary: o.summary,
            ...(o.hint ? { hint: o.hint } : {}),
          }),
        (err: unknown) => this.answer(seq, { stage: 'done', id, inputs, items: [], ok: false, summary: messageOf(err) }),
      )
      .finally(() => {
        if (!this.quit.signal.aborted) void this.registry().then(this.facts, () => {});
      });
  }

  back(): void {
    if (day2Busy(this.slice)) return;
    this.set({ stage: 'menu' });
    void this.registry().then((reg) => updateSlice(this.store, 'day2', (s) => ({ ...s, entries: reg.operations.map(entryOf) })));
  }

  /** The session changed: an open page's operations and facts (its control plane may be another) read again through it. */
  restart(): void {
    if (!this.slice.open || day2Busy(this.slice)) return;
    void this.registry().then(
      (reg) => {
        updateSlice(this.store, 'day2', (s) => ({ ...day2Opened(s, reg.operations.map(entryOf), {}), facts: {} }));
        return this.facts(reg);
      },
      () => {},
    );
  }

  /** Stop: an operation under way stops where it is (run again, it continues); resolves once it did. */
  async stop(): Promise<void> {
    this.quit.abort();
    await this.running;
  }
}

/** The page's actions; restart reads an open page again through the new session, stop stops a run where it is (resolves once it did). */
export function startDay2Feed(store: FleetStore, session: () => Session, opts: Day2FeedOptions = {}): HeldActions<'day2'> {
  const page = new Day2Page(store, session, opts);
  return {
    open: () => page.open(),
    close: () => page.close(),
    plan: (id, inputs) => page.plan(id, inputs),
    run: () => page.run(),
    back: () => page.back(),
    restart: () => page.restart(),
    stop: () => page.stop(),
  };
}

/** The Day 2 page's feed: the operations on the session's fleet; the Certificates reads shown with the page. */
export function day2Feed(o: Pick<Day2FeedOptions, 'registry'> = {}): FeedFactory {
  return ({ store, actions }) =>
    heldSession('day2', (session) => {
      // The Certificates reads shown with the page are the certs feed's.
      const certs: CertsActions = {
        show: (viewer) => actions().certs?.show(viewer),
        hide: (viewer) => actions().certs?.hide(viewer),
        refresh: () => actions().certs?.refresh(),
      };
      const feed = startDay2Feed(store, () => session, { ...o, certs });
      return { actions: feed, restart: () => feed.restart(), stop: () => feed.stop() };
    });
}

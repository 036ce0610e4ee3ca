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
import { assertWritable } from '../kube/transport/gate.js';
import { contextInfos } from '../kube/config/kubeconfig.js';
import type { Session } from '../session/session.js';
import type { CertsActions, Day2Actions } from '../store/actions.js';
import { day2Answer, day2Busy, day2Closed, type Day2Entry, day2Facts, day2Opened, day2Stage, type Day2Stage } from '../store/day2.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import type { Feed, FeedFactory } from './feed.js';
import { heldSession } from './held-session.js';

export interface Day2FeedOptions {
  /** The operations (default: the real registry, loaded when the page first opens). */
  registry?: () => Promise<Day2Registry> | Day2Registry;
  /** The Certificates reads, shown with the page (their nearest expiry is one of its facts). */
  certs?: CertsActions;
}

export interface Day2Feed extends Day2Actions {
  /** Stop: a run under way is aborted (the dashboard quits). */
  stop(): void;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const defaultRegistry = async (): Promise<Day2Registry> => (await import('../day2/registry.js')).day2Registry();

/** The fleet's control plane in this session, or why there is none. */
export function controlPlaneOf(session: Session): Day2Target | string {
  const context = session.fleet?.controlPlaneContext;
  if (!context) return 'no fleet is defined: install one first (the Install tab, enter)';
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
function refusal(entry: Day2Entry | undefined): string | undefined {
  try {
    if (entry?.writes) assertWritable(entry.writes.action);
  } catch (err) {
    return messageOf(err);
  }
  return undefined;
}

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

export function startDay2Feed(store: FleetStore, session: () => Session, opts: Day2FeedOptions = {}): Day2Feed {
  let loaded: Promise<Day2Registry> | undefined;
  const registry = () => {
    loaded ??= Promise.resolve((opts.registry ?? defaultRegistry)());
    return loaded;
  };
  const quit = new AbortController();
  let current: AbortController | undefined;
  const slice = () => store.getState().day2;
  const set = (stage: Day2Stage) => {
    current?.abort();
    current = undefined;
    updateSlice(store, 'day2', (s) => day2Stage(s, stage));
    return slice().seq;
  };
  const answer = (seq: number, stage: Day2Stage) => updateSlice(store, 'day2', (s) => day2Answer(s, seq, stage));
  const signal = () => {
    current = new AbortController();
    return AbortSignal.any([current.signal, quit.signal]);
  };

  const facts = (reg: Day2Registry) => readFacts(store, reg, session(), quit.signal);
  const entry = (id: string) => slice().entries.find((e) => e.id === id);
  const operation = async (id: string) => (await registry()).operations.find((o) => o.id === id);

  return {
    open() {
      opts.certs?.show();
      void registry().then(
        (reg) => {
          updateSlice(store, 'day2', (s) => day2Opened(s, reg.operations.map(entryOf), {}));
          return facts(reg);
        },
        (err: unknown) => {
          updateSlice(store, 'day2', (s) => day2Opened(s, [], {}));
          set({ stage: 'error', id: '', error: `the day-2 operations could not load: ${messageOf(err)}` });
        },
      );
    },
    close() {
      opts.certs?.hide();
      updateSlice(store, 'day2', day2Closed);
    },
    plan(id, inputs) {
      if (day2Busy(slice())) return;
      const seq = set({ stage: 'planning', id, inputs });
      const target = controlPlaneOf(session());
      if (typeof target === 'string') return answer(seq, { stage: 'error', id, error: target });
      const sig = signal();
      void operation(id)
        .then((op) => {
          if (!op) throw new Error(`no day-2 operation "${id}"`);
          return op.plan(target, inputs, sig);
        })
        .then(
          (p) => {
            const refused = p.todo ? refusal(entry(id)) : undefined;
            answer(seq, { stage: 'plan', id, inputs, lines: p.lines, todo: p.todo, ...(refused ? { refused } : {}) });
          },
          (err: unknown) => answer(seq, { stage: 'error', id, error: messageOf(err) }),
        );
    },
    run() {
      const s = slice().stage;
      if (s.stage !== 'plan' || !s.todo) return;
      const { id, inputs } = s;
      // Under --read-only the plan stays, with the gate's one line.
      const refused = refusal(entry(id));
      if (refused) return answer(slice().seq, { ...s, refused });
      const target = controlPlaneOf(session());
      if (typeof target === 'string') return answer(slice().seq, { stage: 'error', id, error: target });
      const seq = set({ stage: 'running', id, inputs, items: [] });
      const sig = signal();
      void operation(id)
        .then((op) => {
          if (!op) throw new Error(`no day-2 operation "${id}"`);
          return op.run(target, inputs, (items) => answer(seq, { stage: 'running', id, inputs, items }), sig);
        })
        .then(
          (o) =>
            answer(seq, { stage: 'done', id, inputs, items: o.steps, ok: o.ok, summary: o.summary, ...(o.hint ? { hint: o.hint } : {}) }),
          (err: unknown) => answer(seq, { stage: 'done', id, inputs, items: [], ok: false, summary: messageOf(err) }),
        )
        .finally(() => registry().then(facts, () => {}));
    },
    back() {
      if (day2Busy(slice())) return;
      set({ stage: 'menu' });
      void registry().then((reg) => updateSlice(store, 'day2', (s) => ({ ...s, entries: reg.operations.map(entryOf) })));
    },
    stop() {
      quit.abort();
    },
  };
}

/** The Day 2 page's feed: the operations on the session's fleet; the Certificates reads shown with the page. */
export function day2Feed(o: Pick<Day2FeedOptions, 'registry'> = {}): FeedFactory {
  return ({ store, actions }): Feed<'day2'> => {
    const certs: CertsActions = {
      show: () => actions().certs?.show(),
      hide: () => actions().certs?.hide(),
      refresh: () => actions().certs?.refresh(),
    };
    return heldSession('day2', (session) => startDay2Feed(store, () => session, { ...o, certs }));
  };
}

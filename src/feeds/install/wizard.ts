/**
 * The install wizard in the feed: what it needs loaded when it opens, the checks and the steps
 * of the choices the screen sends, live into the install slice (an answer for a run superseded
 * since is dropped), and its closing (steps under way stop; after an install done here the
 * dashboard watches the fleet it recorded).
 */
import type { CheckItem } from '../../checklist/checklist.js';
import { refusalOf } from '../../kube/transport/gate.js';
import type { Session } from '../../session/session.js';
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import {
  checksAnswered,
  checksStarted,
  clustersKey,
  INSTALL_WRITES,
  type InstallChecks,
  type InstallChoices,
  installClosed,
  installFailed,
  installLoading,
  installOpened,
  type InstallSlice,
  type InstallSteps,
  stepsAnswered,
  stepsStarted,
} from '../../store/install.js';
import type { InstallFeedOptions, InstallWork } from './feed.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const failed = (id: string, label: string, err: unknown): CheckItem[] => [{ id, label, state: 'fail', detail: message(err) }];
const realWork: NonNullable<InstallFeedOptions['work']> = async (session, flags) => (await import('./work.js')).installWork(session, flags);

/** A plan's bundle, or none when it cannot be said (the plan page then shows the choices only). */
function planOf(work: InstallWork, choices: InstallChoices) {
  try {
    return work.plan(choices);
  } catch {
    return undefined;
  }
}

export class InstallWizard {
  private work: InstallWork | undefined;
  private steps: AbortController | undefined;
  private readonly quit = new AbortController();
  /** The install under way (its outcome written to the slice), until it ends. */
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: FleetStore,
    /** The session as it is at each call. */
    private readonly session: Session,
    private readonly o: InstallFeedOptions,
    /** Watch another session from now on (the dashboard's). */
    private readonly setSession?: (next: Session) => Promise<void>,
  ) {}

  private get slice(): InstallSlice {
    return this.store.getState().install;
  }

  private update(f: (s: InstallSlice) => InstallSlice): void {
    updateSlice(this.store, 'install', f);
  }

  open(): void {
    const w = this.slice.wizard;
    if (w === 'loading' || w === 'open') return;
    this.update(installLoading);
    void this.load(this.slice.run);
  }

  private async load(run: number): Promise<void> {
    const { work, reopen: _reopen, ...flags } = this.o;
    try {
      const w = await (work ?? realWork)(this.session, flags);
      const setup = { ...w.setup(), initial: this.o.initial ?? {} };
      if (this.slice.run !== run) return;
      this.work = w;
      this.update((s) => installOpened(s, run, setup));
    } catch (err) {
      this.update((s) => installFailed(s, run, message(err)));
    }
  }

  check(choices: InstallChoices): void {
    const w = this.work;
    if (!w) return;
    const key = clustersKey(choices);
    this.update((s) => checksStarted(s, key, s.plans[key] ?? planOf(w, choices)));
    const run = this.slice.run;
    const answer = (checks: InstallChecks) => this.update((s) => checksAnswered(s, run, checks));
    const running = (items: CheckItem[]) => answer({ items, done: false, blocking: false, warnings: false });
    Promise.resolve()
      .then(() => w.checks(choices, running))
      .then(
        (r) => answer({ items: r.items, done: true, blocking: r.blocking, warnings: r.warnings }),
        (err: unknown) => answer({ items: failed('error', 'Checks could not run', err), done: true, blocking: true, warnings: false }),
      );
  }

  install(choices: InstallChoices): void {
    const w = this.work;
    if (!w) return;
    this.update(stepsStarted);
    const run = this.slice.run;
    const answer = (steps: InstallSteps) => this.update((s) => stepsAnswered(s, run, steps));
    // Under --read-only nothing runs: the gate's one line says why.
    const refused = refusalOf(this.session, INSTALL_WRITES);
    if (refused) return answer({ items: failed('refused', 'Install', refused), done: true, ok: false });
    this.steps?.abort();
    this.steps = new AbortController();
    const signal = AbortSignal.any([this.steps.signal, this.quit.signal]);
    this.running = Promise.resolve()
      .then(() => w.install(choices, (items) => answer({ items, done: false, ok: false }), signal))
      .then(
        (r) => answer({ items: r.steps, done: true, ok: r.ok }),
        (err: unknown) => answer({ items: failed('error', 'Install could not run', err), done: true, ok: false }),
      );
  }

  close(code: number): void {
    this.steps?.abort(new Error('cancelled'));
    this.steps = undefined;
    this.work = undefined;
    this.update(installClosed);
    if (code === 0 && this.o.reopen) void this.watchInstalled(this.o.reopen);
  }

  /** After an install from the Install tab: the fleet file it wrote, and the control plane's context, watched. */
  private async watchInstalled(reopen: NonNullable<InstallFeedOptions['reopen']>): Promise<void> {
    try {
      await this.setSession?.(reopen());
      this.store.setState({ banner: { kind: 'info', text: 'installed: the fleet is recorded and watched' } });
    } catch (err) {
      this.store.setState({ banner: { kind: 'error', text: message(err) } });
    }
  }

  /** Stop (the dashboard quits): steps under way stop where they are; resolves once they did. */
  async stop(): Promise<void> {
    this.quit.abort(new Error('cancelled'));
    await this.running;
  }
}

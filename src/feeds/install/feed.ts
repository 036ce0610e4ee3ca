/**
 * The Install tab's wizard feed: what the wizard needs, loaded when it opens (the install
 * bundle, the session's contexts); the prerequisite checks and the install steps of the choices
 * the screen sends, live into the install slice (a superseded run's answer dropped); and its
 * closing: steps under way stop (the install resumes where it stopped when run again), and an
 * install done here makes the dashboard watch the fleet it recorded. The workflows come from
 * work.ts, bound to the session the feed was started with, and load with the wizard.
 */
import type { CheckItem } from '../../checklist/checklist.js';
import type { Session } from '../../session/session.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { InstallChoices, InstallPlanBundle, InstallSetup } from '../../store/install.js';
import { type FeedFactory, type HeldActions, heldSession } from '../feed.js';
import { InstallWizard } from './wizard.js';

export interface ChecksOutcome {
  items: CheckItem[];
  blocking: boolean;
  warnings: boolean;
}

export interface InstallOutcome {
  ok: boolean;
  steps: CheckItem[];
}

/** The wizard's workflows, bound to a session and the flags (work.ts; tests pass fakes). */
export interface InstallWork {
  /** The contexts to choose from and the kubeconfig files. */
  setup(): Omit<InstallSetup, 'initial'>;
  /** The bundle the plan names for the choice of clusters. */
  plan(choices: InstallChoices): InstallPlanBundle;
  checks(choices: InstallChoices, onProgress: (items: CheckItem[]) => void): Promise<ChecksOutcome>;
  /** The install's steps; stops where it is when `signal` aborts (run again, it continues). */
  install(choices: InstallChoices, onProgress: (items: CheckItem[]) => void, signal: AbortSignal): Promise<InstallOutcome>;
}

/** What the command line says about the install (the dashboard's or `fleetdeck install`'s flags). */
export interface InstallFlags {
  /** The wizard's first answers. */
  initial?: Partial<InstallChoices>;
  /** --bundle: the bundle directory (default: the one built in). */
  bundleDir?: string;
  rotateCerts?: boolean;
  /** The control plane's context name in the kubeconfig written (default `nova`). */
  controlPlaneContext?: string;
  /** Where the fleet is recorded (default: the fleet file's path). */
  fleetFile?: string;
}

export interface InstallFeedOptions extends InstallFlags {
  /** The workflows bound to a session (default: work.ts, loaded when the wizard opens). */
  work?: (session: Session, flags: InstallFlags) => InstallWork | Promise<InstallWork>;
  /** The session after an install (the fleet file it wrote). Absent: the session stays. */
  reopen?: () => Session;
}

/**
 * The wizard's actions, and its stop: steps under way stop where they are; resolves once they did.
 * `session` is read at every call (a view of the current one); `setSession` makes the dashboard watch another.
 */
export function startInstallFeed(
  store: FleetStore,
  session: Session,
  o: InstallFeedOptions = {},
  setSession?: (next: Session) => Promise<void>,
): HeldActions<'install', 'stop'> {
  const wizard = new InstallWizard(store, session, o, setSession);
  return {
    open: () => wizard.open(),
    check: (choices) => wizard.check(choices),
    install: (choices) => wizard.install(choices),
    close: (code) => wizard.close(code),
    stop: () => wizard.stop(),
  };
}

/** The install wizard's feed: the flags' install, on the session the dashboard watches. */
export function installFeed(o: InstallFeedOptions = {}): FeedFactory {
  return ({ store, setSession }) =>
    heldSession('install', (session) => {
      const feed = startInstallFeed(store, session, o, setSession);
      return { actions: feed, stop: () => feed.stop() };
    });
}

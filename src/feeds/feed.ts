/**
 * The one contract of every feed: the dashboard starts it with the run's session, re-points it
 * when the session changes (a sandbox started here, a fleet installed, the kubeconfig or the
 * fleet file edited elsewhere), and stops it when quitting. A feed is the only writer of its
 * store slice besides its actions, which the screens call; it keeps the session it was given
 * and takes every KubeConfig from it.
 */
import type { Session } from '../session/session.js';
import type { Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';

/** What a feed is given when the dashboard makes it. */
export interface FeedEnv {
  store: FleetStore;
  /** Aborted when the dashboard quits. */
  quit: AbortSignal;
  /** Watch another session from now on: every feed restarted with it (an install done here). */
  setSession(next: Session): Promise<void>;
  /** Every feed's actions (a feed that shows another's view with its own asks it through these). */
  actions(): Actions;
}

export interface Feed<K extends keyof Actions = keyof Actions> {
  /** Which group of the screens' actions it answers (absent: a feed the screens only read). */
  readonly name?: K;
  readonly actions?: NonNullable<Actions[K]>;
  /** Begin with the run's session. */
  start(session: Session): void;
  /** The session changed: what it watches or reads is of the new one from now on. */
  restart(session: Session): void;
  /** Stop everything; what runs here that writes (a rollout) pauses resumably first. */
  stop(): Promise<void> | void;
}

/** How the dashboard makes a feed. */
export type FeedFactory = (env: FeedEnv) => Feed;

/**
 * The session a feed holds, as one object whose every call reads it as it is now: workflows
 * bound to it once keep working after a restart, with the new session's KubeConfigs.
 */
export function sessionView(current: () => Session | undefined): Session {
  const now = (): Session => {
    const s = current();
    if (!s) throw new Error('the dashboard has no session yet');
    return s;
  };
  return new Proxy({} as Session, {
    get: (_target, key) => {
      const value = Reflect.get(now(), key);
      return typeof value === 'function' ? value.bind(now()) : value;
    },
  });
}

/** What a feed of actions over the session it holds does: its actions, and what it does besides when the session changes or the dashboard quits. */
export interface HeldSessionFeed<K extends keyof Actions> {
  actions: NonNullable<Actions[K]>;
  /** The session changed (the held one already is the new one). */
  restart?(): void;
  stop?(): Promise<void> | void;
}

/**
 * A feed whose workflows read the session it holds: `build` gets that session (as one object
 * whose every call reads the session as it is then, see sessionView) and makes the actions once.
 */
export function heldSession<K extends keyof Actions>(name: K, build: (session: Session) => HeldSessionFeed<K>): Feed<K> {
  let session: Session | undefined;
  const made = build(sessionView(() => session));
  return {
    name,
    actions: made.actions,
    start: (s) => {
      session = s;
    },
    restart: (s) => {
      session = s;
      made.restart?.();
    },
    stop: () => made.stop?.(),
  };
}

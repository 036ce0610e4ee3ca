/**
 * The one contract of every feed: the dashboard starts it with the run's session, re-points it
 * when the session changes (a sandbox started here, a fleet installed, the kubeconfig or the
 * fleet file edited elsewhere), and stops it when quitting. A feed is the only writer of its
 * store slice besides its actions, which the screens call; it keeps the session it was given
 * and takes every KubeConfig from it.
 *
 * One way of binding the session: every feed is made with heldSession (below), which holds the
 * session and hands the feed's calls on without it (HeldSessionFeed); what a feed's start
 * function returns, its actions with those calls, is a HeldActions. No other feed-like type.
 *
 * Watching every context: PerContext (per-context.ts) starts and stops one context's watches at a
 * time (Rollouts). Status's per-context helper is watchFleet (src/kube/fleet/fleet.ts) instead:
 * contexts that reach the same API server as the same user share one monitor (30 names of 3
 * servers are 3 sets of watches), the fleet's round trips publish on one timer, and a new session
 * replaces every monitor at once, the new ones started once the old ones stopped.
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

/** The contract's calls as a feed that holds its session makes them: the same, without the session (the held one already is the one given). */
type WithoutSession<F> = { [C in keyof F]: F[C] extends (session: Session) => infer R ? () => R : F[C] };

/** The contract's calls a feed that holds its session answers beside holding it (each when it has more to do). */
export type HeldCalls = Partial<WithoutSession<Pick<Feed, 'start' | 'restart' | 'stop'>>>;

/** The one contract as heldSession's `build` makes it: the feed's actions and whichever of its calls it needs (HeldCalls). */
export type HeldSessionFeed<K extends keyof Actions> = { actions: NonNullable<Actions[K]> } & HeldCalls;

/**
 * A feed's actions that answer its held-session calls themselves: what each feed's start function
 * returns (heldSession's `build` hands it over; tests and commands drive it with no session).
 * `C`: the calls it answers (default restart and stop).
 */
export type HeldActions<K extends keyof Actions, C extends keyof HeldCalls = 'restart' | 'stop'> = NonNullable<Actions[K]> &
  Required<Pick<HeldCalls, C>>;

/**
 * The one way a feed binds the session: it holds the one it was started or restarted with, and
 * `build` gets it once (as one object whose every call reads the session as it is then, see
 * sessionView) and makes the actions and calls (HeldSessionFeed). A feed the screens only read
 * (Status) has no name and no actions.
 */
export function heldSession(build: (session: Session) => HeldCalls): Feed;
export function heldSession<K extends keyof Actions>(name: K, build: (session: Session) => HeldSessionFeed<K>): Feed<K>;
export function heldSession<K extends keyof Actions>(
  nameOrBuild: K | ((session: Session) => HeldCalls),
  named?: (session: Session) => HeldSessionFeed<K>,
): Feed<K> {
  let session: Session | undefined;
  const view = sessionView(() => session);
  const made: HeldCalls & { actions?: NonNullable<Actions[K]> } = typeof nameOrBuild === 'function' ? nameOrBuild(view) : named!(view);
  return {
    ...(typeof nameOrBuild === 'function' ? {} : { name: nameOrBuild, actions: made.actions }),
    start: (s) => {
      session = s;
      made.start?.();
    },
    restart: (s) => {
      session = s;
      made.restart?.();
    },
    stop: () => made.stop?.(),
  };
}

/**
 * The feeds holder: the one current session of the dashboard and every feed of the registry,
 * each started with it and re-pointed when it changes (a sandbox started from the empty screen, a
 * fleet installed from the Install tab, the fleet file or a kubeconfig edited elsewhere). Their
 * actions together are what the screens can ask for.
 */
import type { Session } from '../session/session.js';
import type { Actions } from '../store/actions.js';
import { setBanner, type FleetStore } from '../store/fleet-store.js';
import type { FeedEnv, FeedFactory } from './feed.js';
import { followSessionFleet } from './fleet-file.js';

export interface FeedsOptions {
  /** Start (or reuse) the sandbox fleet: its session and kubeconfig file. Absent: not offered. */
  sandbox?: (progress: (line: string) => void, signal: AbortSignal) => Promise<{ session: Session; kubeconfig: string }>;
  /** The current session read again: its kubeconfig files and the fleet file as they are now (the same flags). */
  reopen?: () => Session;
  /** The fleet file to follow: when it changes (an install or uninstall elsewhere), the session is reopened. */
  fleetFile?: string;
}

export interface Feeds {
  actions: Actions;
  /** The session the feeds watch now. */
  session(): Session;
  /** Watch another session: every feed re-pointed. */
  setSession(session: Session): Promise<void>;
  /** Pause the rollouts run here, stop every feed. */
  stop(): Promise<void>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function createFeeds(store: FleetStore, first: Session, factories: readonly FeedFactory[], opts: FeedsOptions = {}): Feeds {
  let current = first;
  const quit = new AbortController();
  let actions: Actions = {};
  const setSession = async (next: Session) => {
    current = next;
    // Each feed re-pointed whatever another did: one that cannot follow says so, the rest still do.
    for (const feed of feeds) {
      try {
        feed.restart(next);
      } catch (err) {
        setBanner(store, { kind: 'error', text: `${feed.name ?? 'a feed'}: ${message(err)}` });
      }
    }
  };
  const env: FeedEnv = { store, quit: quit.signal, setSession, actions: () => actions };
  const feeds = factories.map((make) => make(env));
  for (const feed of feeds) if (feed.name && feed.actions) actions = { ...actions, [feed.name]: feed.actions };
  for (const feed of feeds) feed.start(first);

  let starting: Promise<void> | undefined;
  const startSandbox = async (sandbox: NonNullable<FeedsOptions['sandbox']>) => {
    setBanner(store, { kind: 'progress', text: 'starting the sandbox fleet…' });
    try {
      const up = await sandbox((line) => setBanner(store, { kind: 'progress', text: `sandbox: ${line}` }), quit.signal);
      await setSession(up.session);
      setBanner(store, { kind: 'info', text: `sandbox running · kubectl: export KUBECONFIG=${up.kubeconfig}` });
    } catch (err) {
      if (!quit.signal.aborted) setBanner(store, { kind: 'error', text: `sandbox: ${message(err)}` });
    } finally {
      starting = undefined;
    }
  };
  const { sandbox, reopen, fleetFile } = opts;
  if (sandbox) {
    const start = () => {
      starting ??= startSandbox(sandbox);
    };
    actions = { ...actions, sandbox: { start } };
  }

  // An install, an uninstall or an edit of the fleet file elsewhere: the dashboard follows it.
  const unfollow = fleetFile && reopen ? followSessionFleet(fleetFile, { store, reopen, session: () => current, setSession }) : undefined;

  return {
    actions,
    session: () => current,
    setSession,
    async stop() {
      quit.abort();
      unfollow?.();
      await starting;
      // Rollouts run from the Rollouts tab pause (resumable) rather than stop mid-write.
      await Promise.all(feeds.map((feed) => feed.stop()));
    },
  };
}

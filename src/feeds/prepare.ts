/**
 * The Install tab's "Prepare nodes" feed: `fleetdeck preflight`'s checks of this host, the API
 * server being the session's current context's, into the prepare slice. The preflight modules
 * are loaded when the checks first run.
 */
import type { CheckItem } from '../checklist/checklist.js';
import { contextInfos } from '../kube/config/kubeconfig.js';
import type { Session } from '../session/session.js';
import type { PrepareActions } from '../store/actions.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { prepareRunning, prepareSettled, prepareStarted } from '../store/prepare.js';
import type { Feed, FeedFactory } from './feed.js';
import { heldSession } from './held-session.js';

/** The checks of this host, as `fleetdeck preflight` runs them with the session's current context. */
export type Preflight = (session: Session) => Promise<CheckItem[]>;

export async function preflightOfThisHost(session: Session): Promise<CheckItem[]> {
  const { DEFAULT_MIN_CPUS, DEFAULT_MIN_MEMORY_GB, preflightChecks } = await import('../preflight/checks.js');
  const { gatherFacts } = await import('../preflight/gather.js');
  const context = session.config.getCurrentContext();
  const info = context ? contextInfos(session.config).find((c) => c.name === context) : undefined;
  const api = info ? { url: info.server, source: `context ${info.name}`, kc: session.kc(info.name) } : undefined;
  const facts = await gatherFacts({ root: '/', ...(api ? { api } : {}) });
  return preflightChecks(facts, { minCpus: DEFAULT_MIN_CPUS, minMemoryGB: DEFAULT_MIN_MEMORY_GB });
}

/** `session()` is the session as it is now (a sandbox started or a fleet installed here changes it). */
export function startPrepareFeed(store: FleetStore, session: () => Session, preflight: Preflight = preflightOfThisHost): PrepareActions {
  return {
    run() {
      // Still running (the page may have been left with Esc): let it finish.
      if (prepareRunning(store.getState().prepare)) return;
      updateSlice(store, 'prepare', prepareStarted);
      const run = store.getState().prepare.state?.run ?? 0;
      let checks: Promise<CheckItem[]>;
      try {
        checks = preflight(session());
      } catch (err) {
        checks = Promise.reject(err);
      }
      checks.then(
        (items) => updateSlice(store, 'prepare', (s) => prepareSettled(s, run, { items })),
        (err: unknown) =>
          updateSlice(store, 'prepare', (s) => prepareSettled(s, run, { error: err instanceof Error ? err.message : String(err) })),
      );
    },
  };
}

/** The "Prepare nodes" page's feed: the checks of this host with the session's current context. */
export function prepareFeed(preflight: Preflight = preflightOfThisHost): FeedFactory {
  return ({ store }): Feed<'prepare'> => heldSession('prepare', (session) => startPrepareFeed(store, () => session, preflight));
}

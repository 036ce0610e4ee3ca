/**
 * The Certificates view's feed: while the view is shown, every certificate source read at once,
 * again every minute (residual time runs out, the agents' init kubeconfig is not watched) and
 * as soon as the certificate Secrets the status feed watches in the hosting context change (a
 * renewal), into the certs slice. One read at a time; a change during a read reads again after it.
 */
import type { CertSources } from '../kube/certs/cert-sources.js';
import type { CertSummary } from '../kube/certs/certs.js';
import { certsCleared, certsFailed, certsRead, certsReading, certsShown, type CertsSlice } from '../store/certs.js';
import type { Session } from '../session/session.js';
import { updateSlice, type FleetState, type FleetStore } from '../store/fleet-store.js';
import { certsWork } from './certs-work.js';
import { type FeedFactory, type HeldActions, heldSession } from './feed.js';

/** What the feed calls (src/feeds/certs-work.ts binds it to the session; tests may pass their own). */
export interface CertsWork {
  /** Read every source once; `noFleet`: no hosting context is known, only the kubeconfig's certificates were read. */
  read(): Promise<{ sources: CertSources; noFleet: boolean }>;
}

export interface CertsFeedOptions {
  /** How often the sources are read again while shown (default 60 s). */
  intervalMs?: number;
  now?: () => number;
}

/** The certificate Secrets of the hosting context as the status feed last saw them (undefined: not watched or not known). */
function watchedCerts(s: FleetState): CertSummary[] | undefined {
  const hosting = s.fleet?.hostingContext;
  return hosting === undefined ? undefined : s.status.contexts[hosting]?.fleetNamespace?.certs;
}

const certsKey = (certs: CertSummary[] | undefined) => certs?.map((c) => `${c.secret}/${c.key}/${c.subject}/${c.notAfter}`).join('\n');

/** A renewal rewrites the Secrets the status feed watches: `read` again when their certificates change. Returns the stop. */
function onCertSecretsChange(store: FleetStore, read: () => void): () => void {
  let last = certsKey(watchedCerts(store.getState()));
  return store.subscribe((s, prev) => {
    const certs = watchedCerts(s);
    if (certs === watchedCerts(prev)) return;
    const key = certsKey(certs);
    if (key === last) return;
    last = key;
    if (key !== undefined) read();
  });
}

const CERTIFICATES_VIEW = 'certificates';

type Update = (change: (s: CertsSlice) => CertsSlice) => void;

/** One read at a time, and once more when asked during one (while `wanted`); an answer of an older session dropped. */
function certsReader(update: Update, work: CertsWork, now: () => number, wanted: () => boolean) {
  /** Bumped when the session changes: an answer of an older one is dropped. */
  let generation = 0;
  let reading = false;
  let again = false;
  const read = () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    const gen = generation;
    update(certsReading);
    work
      .read()
      .then(
        ({ sources, noFleet }) => {
          if (gen === generation) update((s) => certsRead(s, sources, now(), noFleet));
        },
        (err: unknown) => {
          if (gen === generation) update((s) => certsFailed(s, err instanceof Error ? err.message : String(err)));
        },
      )
      .finally(() => {
        reading = false;
        if (again && wanted()) {
          again = false;
          read();
        }
      });
  };
  return {
    read,
    /** The session changed: what is being read is of the old one. */
    newSession: () => generation++,
    /** No read asked for during this one. */
    forget: () => {
      again = false;
    },
  };
}

export function startCertsFeed(
  store: FleetStore,
  work: CertsWork,
  { intervalMs = 60_000, now = Date.now }: CertsFeedOptions = {},
): HeldActions<'certs'> {
  const update: Update = (change) => updateSlice(store, 'certs', change);
  let shown = false;
  /** The views showing the certificates now: the reads go on while one is. */
  const viewers = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  const { read, newSession, forget } = certsReader(update, work, now, () => shown);

  const quiet = () => {
    shown = false;
    viewers.clear();
    forget();
    clearInterval(timer);
    timer = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
  };

  return {
    show(viewer = CERTIFICATES_VIEW) {
      viewers.add(viewer);
      if (shown) return;
      shown = true;
      update((s) => certsShown(s, true));
      read();
      timer = setInterval(read, intervalMs);
      timer.unref?.();
      unsubscribe = onCertSecretsChange(store, read);
    },
    hide(viewer = CERTIFICATES_VIEW) {
      viewers.delete(viewer);
      if (!shown || viewers.size) return;
      quiet();
      update((s) => certsShown(s, false));
    },
    refresh() {
      if (shown) read();
    },
    /** The session changed: what was read is of the old one; read again if shown. */
    restart() {
      newSession();
      update(certsCleared);
      if (shown) read();
    },
    stop: quiet,
  };
}

export interface CertsFeedFactoryOptions extends CertsFeedOptions {
  /** The reads (default: the session's sources, as `fleetdeck certs`). */
  work?: (session: () => Session) => CertsWork;
}

/** The Certificates view's feed, reading through the session it holds. */
export function certsFeed({ work = certsWork, ...o }: CertsFeedFactoryOptions = {}): FeedFactory {
  return ({ store }) =>
    heldSession('certs', (session) => {
      const feed = startCertsFeed(
        store,
        work(() => session),
        o,
      );
      return { actions: feed, restart: () => feed.restart(), stop: () => feed.stop() };
    });
}

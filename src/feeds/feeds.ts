/**
 * The feeds holder: the one current session of the dashboard, the status feed, and each tab's
 * feed, started when its tab is first shown (its workflows loaded then, in their own chunk) and
 * run as long as the dashboard. It implements the screens' Actions. A sandbox started from the
 * empty screen, or a fleet installed from the Install tab, brings a new session: every feed is
 * re-pointed at it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Session } from '../session/session.js';
import type { Actions } from '../store/actions.js';
import { setBanner, setContexts, updateSlice, type FleetStore } from '../store/fleet-store.js';
import { startCertsFeed, type CertsFeedOptions, type CertsWork } from './certs.js';
import { certsWork } from './certs-work.js';
import { startDay2Feed, type Day2FeedOptions } from './day2.js';
import { followSessionFleet } from './fleet-file.js';
import { lazyFeed } from './lazy.js';
import { startLogsFeed, type LogsFeedOptions, type LogsWork } from './logs.js';
import { logsWork } from './logs-work.js';
import { startPrepareFeed, type Preflight } from './prepare.js';
import { startStatusFeed, type StatusFeed, type StatusFeedOptions } from './status-feed.js';
import { tabFeeds, type TabWork } from './tab-feeds.js';

export interface FeedsOptions<W> {
  /** Start (or reuse) the sandbox fleet: its session and kubeconfig file. Absent: not offered. */
  sandbox?: (progress: (line: string) => void, signal: AbortSignal) => Promise<{ session: Session; kubeconfig: string }>;
  /** What the install wizard needs; `kubeconfig` is the file a sandbox started here brought. Absent: not offered. */
  installer?: (kubeconfig: string | undefined) => Promise<W>;
  /** The session after an install (the fleet file it wrote); `kubeconfig` is the file a sandbox started here brought. */
  reopen?: (kubeconfig: string | undefined) => Session;
  /** The fleet file to follow: when it changes (an install or uninstall elsewhere), the session is reopened. */
  fleetFile?: string;
  /** The checks of the "Prepare nodes" page (default: this host's, as `fleetdeck preflight`). */
  preflight?: Preflight;
  /** The tabs' workflows (default: the real ones, loaded when first needed). */
  work?: Partial<TabWork>;
  /** The status feed's options (tests: the batch interval). */
  status?: Omit<StatusFeedOptions, 'store' | 'fleet'>;
  /** Lines the log view keeps per pod (--log-lines; default DEFAULT_LOG_LINES). */
  logLines?: number;
  /** The Certificates view's reads (default: the session's, as `fleetdeck certs`) and options. */
  certs?: { work?: CertsWork } & CertsFeedOptions;
  /** The Day 2 page's operations (default: src/day2/registry.ts, loaded when the page first opens). */
  day2?: Pick<Day2FeedOptions, 'registry'>;
  /** The log view's work (default: the real one, through src/kube) and options. */
  logs?: { work?: (kc: (context: string) => KubeConfig) => LogsWork } & LogsFeedOptions;
}

export interface Feeds<W> {
  actions: Actions<W>;
  /** The session the feeds watch now. */
  session(): Session;
  /** Watch another session: the contexts on screen, and every feed re-pointed. */
  setSession(session: Session): Promise<void>;
  /** Pause the rollouts run here, stop every feed. */
  stop(): Promise<void>;
}

export function createFeeds<W>(store: FleetStore, first: Session, opts: FeedsOptions<W> = {}): Feeds<W> {
  let current = first;
  const kc = (context: string): KubeConfig => current.kc(context);
  const startStatus = (s: Session) =>
    s.contexts.length ? startStatusFeed(s.kc, s.contexts, { ...opts.status, store, fleet: s.fleet }) : undefined;
  let status: StatusFeed | undefined = startStatus(first);
  const quit = new AbortController();
  const tabs = tabFeeds(store, kc, opts.work);
  const prepare = startPrepareFeed(store, () => current, opts.preflight);
  if (opts.logLines !== undefined) updateSlice(store, 'logs', (s) => ({ ...s, capacity: opts.logLines! }));
  const { work: logsWorkOf = logsWork, ...logsOpts } = opts.logs ?? {};
  const logs = startLogsFeed(store, logsWorkOf(kc), logsOpts);
  const { work: certsWorkGiven, ...certsOpts } = opts.certs ?? {};
  const certs = startCertsFeed(store, certsWorkGiven ?? certsWork(() => current), certsOpts);
  const day2 = startDay2Feed(store, () => current, { ...opts.day2, certs });

  const setSession = async (next: Session) => {
    current = next;
    tabs.restart();
    logs.restart();
    certs.restart();
    setContexts(store, next.contexts, next.fleet, next.files);
    await status?.stop();
    status = startStatus(next);
  };

  let starting: Promise<void> | undefined;
  const startSandbox = async (sandbox: NonNullable<FeedsOptions<W>['sandbox']>) => {
    setBanner(store, { kind: 'progress', text: 'starting the sandbox fleet…' });
    try {
      const up = await sandbox((line) => setBanner(store, { kind: 'progress', text: `sandbox: ${line}` }), quit.signal);
      await setSession(up.session);
      setBanner(store, { kind: 'info', text: `sandbox running · kubectl: export KUBECONFIG=${up.kubeconfig}` });
    } catch (err) {
      if (!quit.signal.aborted) setBanner(store, { kind: 'error', text: `sandbox: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      starting = undefined;
    }
  };

  // After an install from the Install tab: the fleet file it wrote, and the control plane's context, watched.
  const watchInstalled = async (reopen: NonNullable<FeedsOptions<W>['reopen']>) => {
    try {
      await setSession(reopen(store.getState().kubeconfigFiles?.[0]));
      setBanner(store, { kind: 'info', text: 'installed: the fleet is recorded and watched' });
    } catch (err) {
      setBanner(store, { kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };

  // An install, an uninstall or an edit of the fleet file elsewhere: the dashboard follows it.
  const unfollow =
    opts.fleetFile && opts.reopen
      ? followSessionFleet(opts.fleetFile, { store, reopen: opts.reopen, session: () => current, setSession })
      : undefined;

  const { installer, sandbox, reopen } = opts;
  const wizard = installer
    ? lazyFeed(
        () => installer(store.getState().kubeconfigFiles?.[0]),
        (s) => updateSlice(store, 'install', () => ({ wizard: s === 'on' ? 'open' : s === 'off' ? 'closed' : s })),
      )
    : undefined;

  return {
    actions: {
      ...(sandbox
        ? {
            sandbox: {
              start: () => {
                starting ??= startSandbox(sandbox);
              },
            },
          }
        : {}),
      ...(wizard
        ? {
            install: {
              open: () => wizard.start(),
              closed: (code: number) => {
                wizard.reset();
                if (code === 0 && reopen) void watchInstalled(reopen);
              },
            },
          }
        : {}),
      prepare,
      day2,
      ...tabs.actions,
      logs,
      certs,
    },
    session: () => current,
    setSession,
    async stop() {
      quit.abort();
      unfollow?.();
      day2.stop();
      logs.stop();
      certs.stop();
      // Rollouts run from the Rollouts tab pause (resumable) rather than stop mid-write.
      await tabs.stop();
      await starting;
      await status?.stop();
    },
  };
}

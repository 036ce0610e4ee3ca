import { fleetFilePath } from '../config/fleet-config.js';
import { feedsOf, registry } from '../dashboard/registry.js';
import type { WorkloadsFeedOptions } from '../feeds/workloads.js';
import { gateView } from '../dashboard/gate-view.js';
import { createFeeds } from '../feeds/feeds.js';
import { setPluginTerminal } from '../kube/transport/credentials.js';
import { requestsOnTheWire } from '../kube/transport/on-the-wire.js';
import { sandboxDir } from '../sandbox/state.js';
import { createFleetStore } from '../store/fleet-store.js';
import { asciiOnly, colorEnabled, type GlobalOptions } from '../session/options.js';
import { openSession } from '../session/session.js';
import { onStop } from '../session/signals.js';
import { installFlags } from './install/flags.js';

/** Plain mode when there is no terminal to draw on, in CI, or when -o was given. */
export function interactive(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!process.stdout.isTTY && !!process.stdin.isTTY && !env.CI && opts.output === undefined;
}

/** How long the screens wait for the first requests to have their connections (a slow server: not longer). */
const FIRST_REQUESTS_BOUND_MS = 300;

/**
 * The screens' module, loaded once the contexts' first requests have their connections: its
 * evaluation holds the event loop, which their TLS handshakes need.
 */
export async function loadScreens(): Promise<typeof import('../screens/render.js')> {
  await requestsOnTheWire(FIRST_REQUESTS_BOUND_MS);
  return import('../screens/render.js');
}

/**
 * `fleetdeck`: the dashboard (or, without a terminal, the status report once). The session, the
 * store, the feeds holder that fills it and answers the screens' actions, then the screens.
 *
 * Only what the contexts' first requests need is loaded before they are sent; the screens (ink,
 * react, the layout engine) load and draw their first frame while the servers assemble their
 * lists. At 50,000 pods an API server takes most of a second to answer: the screens' start
 * costs nothing then (`npm run bench -- --clusters`, figure 4).
 */
/** The Workloads tab's read of the fleet (its module loaded when the tab is first shown). */
export const WORKLOADS_READ: WorkloadsFeedOptions = {
  read: async (session) => (await import('./placement-read.js')).readFleetPlacement(session, 'the Workloads tab'),
};

export async function runDashboard(opts: GlobalOptions): Promise<number> {
  // The sandbox fleet is for when no cluster is given: --kubeconfig, --context or
  // --hosting-context win. It has no fleet file of its own.
  const sandboxMode = !!opts.sandbox && !opts.kubeconfig && !opts.context?.length && !opts.hostingContext;
  if (sandboxMode) {
    const { upWithInterrupt } = await import('./sandbox.js');
    const state = await upWithInterrupt(sandboxDir(), 2, 6, (l) => process.stderr.write(`sandbox: ${l}\n`));
    opts = { ...opts, kubeconfig: state.kubeconfig };
  }
  const session = openSession(opts, { useFleetFile: !sandboxMode, showFleetProblems: true });
  if (!interactive(opts)) {
    const { runStatus } = await import('./status.js');
    return runStatus(opts, session);
  }

  // The screens draw on the terminal and read its keys: an exec plugin never gets it here.
  setPluginTerminal(() => false, 'the dashboard keeps the terminal');
  const store = createFleetStore(session.contexts, session.fleet, opts.warnDays);
  const tabs = registry({
    ...(opts.logLines !== undefined ? { logs: { logLines: opts.logLines } } : {}),
    workloads: WORKLOADS_READ,
    install: {
      ...installFlags(opts),
      // After an install: the fleet file it wrote, and the control plane's context.
      reopen: () => feeds.session().reopened({}, { useFleetFile: true }),
    },
  });
  const feeds = createFeeds(store, session, feedsOf(tabs), {
    // The sandbox started from the empty screen: its kubeconfig, the contexts --context picks (it has no fleet file).
    sandbox: async (progress, signal) => {
      const { sandboxUp } = await import('../sandbox/commands.js');
      const state = await sandboxUp({ dir: sandboxDir(), workloads: 2, nodes: 6, progress, signal });
      return { session: session.reopened({ kubeconfig: state.kubeconfig }, { useFleetFile: false }), kubeconfig: state.kubeconfig };
    },
    // The current session (a sandbox's, if started here) read again: its files as they are now.
    reopen: () => feeds.session().reopened({}),
    // An install or uninstall in another terminal: the dashboard follows the fleet file it wrote.
    ...(sandboxMode ? {} : { fleetFile: fleetFilePath() }),
  });
  const { renderApp } = await loadScreens();
  const app = renderApp({
    store,
    tabs: tabs.tabs,
    overlays: tabs.overlays,
    ui: { ascii: asciiOnly(opts), color: colorEnabled(opts) },
    // One gate for the run: every session the dashboard opens after this one shares it.
    gate: gateView(session),
    kubeconfigFiles: session.files,
    actions: feeds.actions,
    onQuit: () => app.unmount(),
  });
  // SIGTERM, SIGHUP (a closed SSH session), Ctrl-C outside raw mode: quit as with q — ink gives the
  // terminal back (raw mode off, cursor shown); the run exits with the signal's code.
  const cancelStop = onStop(() => app.unmount());
  await app.waitUntilExit();
  cancelStop();
  // Rollouts run here pause (resumable, recorded); every feed stops.
  await feeds.stop();
  return 0;
}

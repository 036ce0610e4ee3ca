/** The install wizard from the command line (a terminal): the Install tab's wizard and its feed, on this run's session. */
import { render, type Instance } from 'ink';
import { GateProvider } from '../../components/key-actions/index.js';
import { colorAllowed, UiProvider } from '../../components/theme/index.js';
import { gateView } from '../../dashboard/gate-view.js';
import { UserError } from '../../errors.js';
import { startInstallFeed } from '../../feeds/install/feed.js';
import { contextInfos } from '../../kube/config/kubeconfig.js';
import { StandaloneWizard } from '../../screens/install/standalone.js';
import { SizeGate } from '../../screens/size-gate.js';
import { createFleetStore, type FleetStore } from '../../store/fleet-store.js';
import { asciiOnly, colorEnabled } from '../../session/options.js';
import { openSession } from '../../session/session.js';
import { onStop } from '../../session/signals.js';
import { installFlags } from './flags.js';
import type { InstallCommandOptions } from './resolve.js';

/** Once the wizard has what it needs: or why it could not load (a bundle directory that is not one). */
function opened(store: FleetStore): Promise<void> {
  return new Promise((resolve, reject) => {
    const settled = () => {
      const w = store.getState().install.wizard;
      if (w === 'loading') return false;
      unsubscribe();
      if (typeof w === 'object') reject(new UserError(w.error, 2));
      else resolve();
      return true;
    };
    const unsubscribe = store.subscribe(() => void settled());
    settled();
  });
}

/** The wizard on its own (a terminal, no -o/--yes/--dry-run): one session for the run, the install feed started with it. */
export async function runWizard(opts: InstallCommandOptions, fleetFile: string): Promise<number> {
  // The install makes the fleet: it does not start from the fleet file.
  const session = openSession(opts, { useFleetFile: false });
  if (contextInfos(session.config).length === 0) {
    throw new UserError(
      `no contexts in the kubeconfig (${session.files.join(', ') || 'none found'}); pass --kubeconfig, or start the sandbox: fleetdeck sandbox up`,
      2,
    );
  }
  const store = createFleetStore([]);
  const feed = startInstallFeed(store, session, installFlags(opts, fleetFile));
  feed.open();
  await opened(store);
  return new Promise<number>((resolvePromise) => {
    let app: Instance | undefined;
    const exit = (code: number) => {
      cancelStop();
      feed.close(code);
      feed.stop();
      app?.unmount();
      resolvePromise(code);
    };
    // SIGTERM, SIGHUP (a closed SSH session): stop the steps where they are and give the terminal back.
    const cancelStop = onStop(() => exit(1));
    app = render(
      <UiProvider value={{ ascii: asciiOnly(opts), color: colorAllowed(colorEnabled(opts)) }}>
        <GateProvider gate={gateView(session)}>
          <SizeGate onQuit={() => exit(130)}>
            {(columns, rows) => <StandaloneWizard store={store} actions={feed} width={columns - 1} height={rows - 1} onExit={exit} />}
          </SizeGate>
        </GateProvider>
      </UiProvider>,
      { exitOnCtrlC: false, maxFps: 12 },
    );
  });
}

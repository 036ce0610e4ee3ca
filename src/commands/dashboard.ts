import { startStatusFeed, type StatusFeed } from '../feeds/status-feed.js';
import { contextInfos, loadKubeconfig } from '../kube/kubeconfig.js';
import { sandboxUp } from '../sandbox/commands.js';
import { sandboxDir } from '../sandbox/state.js';
import { renderApp } from '../screens/render.js';
import { createFleetStore, setBanner, setContexts } from '../store/fleet-store.js';
import { asciiOnly, colorEnabled, type GlobalOptions } from '../session/options.js';
import { openSession } from '../session/session.js';
import { upWithInterrupt } from './sandbox.js';
import { runStatus } from './status.js';

/** Plain mode when there is no terminal to draw on, in CI, or when -o was given. */
export function interactive(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!process.stdout.isTTY && !!process.stdin.isTTY && !env.CI && opts.output === undefined;
}

/** `fleetdeck`: the dashboard (or, without a terminal, the status report once). */
export async function runDashboard(opts: GlobalOptions): Promise<number> {
  // The sandbox fleet is for when no cluster is given: --kubeconfig, --context or
  // --hosting-context win. It has no fleet file of its own.
  const sandboxMode = !!opts.sandbox && !opts.kubeconfig && !opts.context?.length && !opts.hostingContext;
  if (sandboxMode) {
    const state = await upWithInterrupt(sandboxDir(), 2, 6, (l) => process.stderr.write(`sandbox: ${l}\n`));
    opts = { ...opts, kubeconfig: state.kubeconfig };
  }
  const sel = openSession(opts, { useFleetFile: !sandboxMode });
  if (!interactive(opts)) return runStatus(opts, sel);

  const store = createFleetStore(sel.contexts, sel.fleet);
  let fleet: StatusFeed | undefined = sel.contexts.length
    ? startStatusFeed(sel.config, sel.contexts, { store, fleet: sel.fleet })
    : undefined;
  let starting: Promise<void> | undefined;
  // The kubeconfig the contexts on screen come from (a sandbox or an install started here changes it).
  let config = sel.config;
  let rollouts: { close(): Promise<void> } | undefined;
  // Quitting while the sandbox starts stops what it had started (build included).
  const quit = new AbortController();

  const startSandbox = async () => {
    setBanner(store, { kind: 'progress', text: 'starting the sandbox fleet…' });
    try {
      const state = await sandboxUp({
        dir: sandboxDir(),
        workloads: 2,
        nodes: 6,
        progress: (line) => setBanner(store, { kind: 'progress', text: `sandbox: ${line}` }),
        signal: quit.signal,
      });
      const loaded = loadKubeconfig({ kubeconfig: state.kubeconfig });
      const contexts = contextInfos(loaded.config);
      setContexts(store, contexts, undefined, loaded.files);
      config = loaded.config;
      await fleet?.stop();
      fleet = startStatusFeed(loaded.config, contexts, { store });
      setBanner(store, { kind: 'info', text: `sandbox running · kubectl: export KUBECONFIG=${state.kubeconfig}` });
    } catch (err) {
      if (!quit.signal.aborted) setBanner(store, { kind: 'error', text: `sandbox: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      starting = undefined;
    }
  };

  // After an install from the Install tab: the fleet file it wrote, and the control plane's context, watched.
  const watchInstalledFleet = async () => {
    try {
      const started = store.getState().kubeconfigFiles?.[0];
      const next = openSession({ ...opts, ...(started ? { kubeconfig: started } : {}) });
      setContexts(store, next.contexts, next.fleet, next.files);
      config = next.config;
      await fleet?.stop();
      fleet = startStatusFeed(next.config, next.contexts, { store, fleet: next.fleet });
      setBanner(store, { kind: 'info', text: 'installed: the fleet is recorded and watched' });
    } catch (err) {
      setBanner(store, { kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };

  const app = renderApp({
    store,
    ui: { readOnly: !!opts.readOnly, ascii: asciiOnly(opts), color: colorEnabled(opts) },
    kubeconfigFiles: sel.files,
    onStartSandbox: () => {
      starting ??= startSandbox();
    },
    installer: async () => {
      const { wizardDeps } = await import('./install.js');
      // The sandbox started from the empty screen brings its own kubeconfig.
      const started = store.getState().kubeconfigFiles?.[0];
      return wizardDeps(opts, loadKubeconfig({ kubeconfig: started ?? opts.kubeconfig }));
    },
    onInstalled: () => void watchInstalledFleet(),
    // The Install tab's "Prepare nodes" page: `fleetdeck preflight` on this host, the API server being the current context's.
    preflight: async () => {
      const { DEFAULT_MIN_CPUS, DEFAULT_MIN_MEMORY_GB, preflightChecks } = await import('../preflight/checks.js');
      const { gatherFacts } = await import('../preflight/gather.js');
      const { configForContext } = await import('../kube/kubeconfig.js');
      const context = config.getCurrentContext();
      const info = context ? contextInfos(config).find((c) => c.name === context) : undefined;
      const api = info ? { url: info.server, source: `context ${info.name}`, kc: configForContext(config, info.name) } : undefined;
      const facts = await gatherFacts({ root: '/', ...(api ? { api } : {}) });
      return preflightChecks(facts, { minCpus: DEFAULT_MIN_CPUS, minMemoryGB: DEFAULT_MIN_MEMORY_GB });
    },
    rollouts: async () => {
      const { rolloutTools } = await import('./rollout-dashboard.js');
      const tools = rolloutTools(() => config, { readOnly: !!opts.readOnly });
      rollouts = tools;
      return tools.deps;
    },
    storage: async () => {
      const { storageDeps } = await import('./storage-dashboard.js');
      return storageDeps(() => config, () => store.getState().order);
    },
    approvals: async () => {
      const { approvalsDeps } = await import('./approvals-dashboard.js');
      return approvalsDeps(() => config);
    },
    onQuit: () => app.unmount(),
  });
  await app.waitUntilExit();
  quit.abort();
  // Rollouts run from the Rollouts tab pause (resumable) rather than stop mid-write.
  await rollouts?.close();
  await starting;
  await fleet?.stop();
  return 0;
}

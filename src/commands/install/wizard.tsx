/** The install wizard from the command line (a terminal), and what it needs bound to the kubeconfig and flags. */
import { render, type Instance } from 'ink';
import { DEFAULT_CONTROL_PLANE_CONTEXT, fleetFilePath } from '../../config/fleet-config.js';
import { UserError } from '../../errors.js';
import { loadBundle, requiredPermissions, type Bundle } from '../../install/bundle.js';
import { runInstall } from '../../install/install.js';
import type { InstallOptions, Target } from '../../install/plan.js';
import { runPrechecks } from '../../install/prechecks/index.js';
import { configForContext, contextInfos, loadKubeconfig, type LoadedKubeconfig } from '../../kube/config/kubeconfig.js';
import { colorAllowed, UiProvider } from '../../components/theme/index.js';
import { InstallWizard, type InstallerDeps } from '../../screens/install/wizard.js';
import { SizeGate } from '../../screens/size-gate.js';
import type { WizardChoices } from '../../screens/install/use-wizard-state.js';
import { asciiOnly, colorEnabled } from '../../session/options.js';
import { onStop } from '../../session/signals.js';
import { controlPlaneKubeconfigPath, fleetStatusCheck, parseWorkloads, type InstallCommandOptions } from './resolve.js';
import { bundlePlan, type BundlePlan } from './bundle-plan.js';

/** The wizard's first answers, from the flags. */
function initialChoices(opts: InstallCommandOptions): Partial<WizardChoices> {
  const workloads = parseWorkloads(opts.workload);
  return {
    ...(opts.hostingContext ? { hosting: opts.hostingContext } : {}),
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ...(workloads.length
      ? { workloads: workloads.map((w) => w.context), clusterNames: Object.fromEntries(workloads.map((w) => [w.context, w.clusterName])) }
      : {}),
    ha: opts.ha !== false,
    ...(opts.topologyKey ? { topologyKey: opts.topologyKey } : {}),
    ...(opts.certValidityDays ? { validityYears: Math.max(1, Math.round(opts.certValidityDays / 365)) } : {}),
    mergeKubeconfig: opts.mergeKubeconfig === true,
  };
}

/** The install's options for the wizard's choices. */
function optionsFor(opts: InstallCommandOptions, loaded: LoadedKubeconfig, fleetFile: string, c: WizardChoices): InstallOptions {
  const target = (context: string): Target => ({ context, kc: configForContext(loaded.config, context) });
  const controlPlaneContext = opts.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT;
  return {
    hosting: target(c.hosting!),
    workloads: c.workloads.map((w) => ({ ...target(w), clusterName: c.clusterNames[w] ?? w })),
    namespace: c.namespace,
    ha: c.ha,
    topologyKey: c.topologyKey,
    validityDays: c.validityYears * 365,
    ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
    rotateCerts: opts.rotateCerts === true,
    dryRun: false,
    controlPlaneContext,
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, controlPlaneContext),
    ...(c.mergeKubeconfig && loaded.files[0] ? { mergeKubeconfig: loaded.files[0] } : {}),
    fleetFile,
  };
}

/** The prerequisite checks of the install `o` describes. */
export function checksFor(o: InstallOptions, bundle: Bundle, onProgress?: Parameters<typeof runPrechecks>[1]) {
  return runPrechecks(
    {
      hosting: { name: o.hosting.context, kc: o.hosting.kc },
      workloads: o.workloads.map((w) => ({ name: w.context, kc: w.kc })),
      namespace: o.namespace,
      ha: o.ha,
      topologyKey: o.topologyKey,
      permissions: requiredPermissions(bundle, o.namespace),
    },
    onProgress,
  );
}

/**
 * What the wizard needs, bound to the kubeconfig and the flags (which become its pages'
 * defaults): the contexts, and the checks and the install as functions of the choices.
 * Used by `fleetdeck install` in a terminal and by the dashboard's Install tab.
 */
export async function wizardDeps(
  opts: InstallCommandOptions,
  loaded: LoadedKubeconfig,
  fleetFile: string = fleetFilePath(),
): Promise<InstallerDeps> {
  const contexts = contextInfos(loaded.config).map((c) => c.name);
  const initial = initialChoices(opts);
  const controlPlaneContext = opts.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT;
  const bundle = await loadBundle(opts.bundle);
  // The plan page draws often: the sandbox is looked up once per choice of clusters.
  const plans = new Map<string, BundlePlan>();
  const planFor = (c: WizardChoices): BundlePlan => {
    const key = JSON.stringify([c.hosting, c.workloads]);
    let plan = plans.get(key);
    if (!plan) {
      const o = optionsFor(opts, loaded, fleetFile, c);
      plan = bundlePlan(bundle, [o.hosting, ...o.workloads], loaded.files);
      plans.set(key, plan);
    }
    return plan;
  };
  return {
    contexts,
    initial,
    bundle: planFor,
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, controlPlaneContext),
    ...(loaded.files[0] ? { userKubeconfig: loaded.files[0] } : {}),
    runChecks: (c, onProgress) => checksFor(optionsFor(opts, loaded, fleetFile, c), bundle, onProgress),
    runInstall: (c, onProgress, signal) => runInstall(optionsFor(opts, loaded, fleetFile, c), onProgress, fleetStatusCheck, signal),
  };
}

/** The wizard on its own (a terminal, no -o/--yes/--dry-run). */
export async function runWizard(opts: InstallCommandOptions, fleetFile: string): Promise<number> {
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig });
  if (contextInfos(loaded.config).length === 0) {
    throw new UserError(
      `no contexts in the kubeconfig (${loaded.files.join(', ') || 'none found'}); pass --kubeconfig, or start the sandbox: fleetdeck sandbox up`,
      2,
    );
  }
  const deps = await wizardDeps(opts, loaded, fleetFile);
  const abort = new AbortController();
  return new Promise<number>((resolvePromise) => {
    let app: Instance | undefined;
    const exit = (code: number) => {
      cancelStop();
      abort.abort(new Error('cancelled'));
      app?.unmount();
      resolvePromise(code);
    };
    // SIGTERM, SIGHUP (a closed SSH session): stop the steps where they are and give the terminal back.
    const cancelStop = onStop(() => exit(1));
    app = render(
      <UiProvider value={{ ascii: asciiOnly(opts), color: colorAllowed(colorEnabled(opts)) }}>
        <SizeGate onQuit={() => exit(130)}>
          {(columns, rows) => (
            <InstallWizard
              {...deps}
              readOnly={opts.readOnly === true}
              width={columns - 1}
              height={rows - 1}
              runInstall={(c, onProgress) => deps.runInstall(c, onProgress, abort.signal)}
              onExit={exit}
            />
          )}
        </SizeGate>
      </UiProvider>,
      { exitOnCtrlC: false, maxFps: 12 },
    );
  });
}

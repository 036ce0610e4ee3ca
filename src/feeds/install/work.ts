/**
 * The install wizard's workflows bound to the session and the flags, as `fleetdeck install`
 * runs them: the bundle (loaded once per opening), the contexts to choose from, the bundle the
 * plan names for a choice of clusters, the prerequisite checks and the install of the choices.
 */
import { DEFAULT_CONTROL_PLANE_CONTEXT, fleetFilePath } from '../../config/fleet-config.js';
import { loadBundle } from '../../install/bundle.js';
import { overlayLine } from '../../install/bundle-overlays.js';
import { bundlePlan } from '../../install/bundle-plan.js';
import { runInstall } from '../../install/install.js';
import { controlPlaneKubeconfigPath, type InstallOptions, type Target } from '../../install/plan.js';
import { prechecksFor } from '../../install/prechecks/index.js';
import { contextInfos } from '../../kube/config/kubeconfig.js';
import type { Session } from '../../session/session.js';
import type { InstallChoices } from '../../store/install.js';
import type { InstallFlags, InstallWork } from './feed.js';
import { fleetStatusCheck } from './fleet-status.js';

/** Where the fleet is recorded, the control plane's context and the kubeconfig file written for it. */
function written(flags: InstallFlags) {
  const fleetFile = flags.fleetFile ?? fleetFilePath();
  const controlPlaneContext = flags.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT;
  return { fleetFile, controlPlaneContext, kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, controlPlaneContext) };
}

/** The install's options for the wizard's choices, each context's KubeConfig the session's. */
export function installOptionsFor(session: Session, flags: InstallFlags, c: InstallChoices): InstallOptions {
  const target = (context: string): Target => ({ context, kc: session.kc(context) });
  const { fleetFile, controlPlaneContext, kubeconfigPath } = written(flags);
  return {
    hosting: target(c.hosting ?? ''),
    workloads: c.workloads.map((w) => ({ ...target(w), clusterName: c.clusterNames[w] ?? w })),
    namespace: c.namespace,
    ha: c.ha,
    topologyKey: c.topologyKey,
    validityDays: c.validityYears * 365,
    ...(flags.bundleDir ? { bundleDir: flags.bundleDir } : {}),
    rotateCerts: flags.rotateCerts === true,
    dryRun: false,
    controlPlaneContext,
    kubeconfigPath,
    ...(c.mergeKubeconfig && session.files[0] ? { mergeKubeconfig: session.files[0] } : {}),
    fleetFile,
    kubeconfigFiles: session.files,
  };
}

export async function installWork(session: Session, flags: InstallFlags): Promise<InstallWork> {
  const bundle = await loadBundle(flags.bundleDir);
  const options = (c: InstallChoices) => installOptionsFor(session, flags, c);
  return {
    setup: () => ({
      contexts: contextInfos(session.config).map((c) => c.name),
      kubeconfigPath: written(flags).kubeconfigPath,
      ...(session.files[0] ? { userKubeconfig: session.files[0] } : {}),
    }),
    plan: (c) => {
      const o = options(c);
      const plan = bundlePlan(bundle, [o.hosting, ...o.workloads], session.files);
      return { ...plan, overlays: (plan.overlays ?? []).map(overlayLine), notSandbox: plan.notSandbox ?? [] };
    },
    checks: (c, onProgress) => prechecksFor(options(c), bundle, onProgress),
    install: (c, onProgress, signal) => runInstall(options(c), onProgress, fleetStatusCheck, signal),
  };
}

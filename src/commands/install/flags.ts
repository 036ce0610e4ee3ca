/** What the install flags say for the wizard's feed: its first answers, the bundle, the files it writes. */
import type { InstallFlags } from '../../feeds/install/feed.js';
import type { InstallChoices } from '../../store/install.js';
import { parseWorkloads, type InstallCommandOptions } from './resolve.js';

/** The wizard's first answers, from the flags. */
function initialChoices(opts: InstallCommandOptions): Partial<InstallChoices> {
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

/** The install the flags describe, for the install feed (`fleetdeck install`'s wizard, the dashboard's Install tab). */
export function installFlags(opts: InstallCommandOptions, fleetFile?: string): InstallFlags {
  return {
    initial: initialChoices(opts),
    ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
    rotateCerts: opts.rotateCerts === true,
    ...(opts.controlPlaneContext ? { controlPlaneContext: opts.controlPlaneContext } : {}),
    ...(fleetFile ? { fleetFile } : {}),
  };
}

/** The install command's targets: flags and the fleet file resolved against the kubeconfig. */
import { DEFAULT_CONTROL_PLANE_CONTEXT, DEFAULT_NAMESPACE, fleetsSharing, readFleetFile } from '../../config/fleet-config.js';
import { UsageError, UserError } from '../../errors.js';
import type { Target, WorkloadTarget } from '../../install/plan.js';
import { configForContext, contextInfos, type LoadedKubeconfig } from '../../kube/config/kubeconfig.js';
import type { GlobalOptions } from '../../session/options.js';
import { identityProblem } from '../../config/fleet-identity.js';
import { requireCredentials, type Session } from '../../session/session.js';

export interface InstallCommandOptions extends GlobalOptions {
  workload?: string[];
  ha?: boolean;
  topologyKey?: string;
  bundle?: string;
  dryRun?: boolean;
  yes?: boolean;
  rotateCerts?: boolean;
  certValidityDays?: number;
  mergeKubeconfig?: boolean;
  /** uninstall: false with --no-backup. */
  backup?: boolean;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export { controlPlaneKubeconfigPath } from '../../install/plan.js';
export { fleetStatusCheck } from '../../feeds/install/fleet-status.js';

export interface Resolved {
  loaded: LoadedKubeconfig;
  hosting: Target;
  workloads: WorkloadTarget[];
  namespace: string;
  controlPlaneContext: string;
}

/** `--workload C1,C2=name2`: contexts, optionally with the cluster name they register under. */
export function parseWorkloads(values: string[] | undefined): { context: string; clusterName: string }[] {
  const out: { context: string; clusterName: string }[] = [];
  for (const v of (values ?? [])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [context = '', clusterName = context] = v.split('=');
    if (!NAME.test(clusterName))
      throw new UsageError(`cluster name "${clusterName}" (from --workload ${v}) is not a valid name (lower-case letters, digits and -)`);
    if (out.some((w) => w.context === context)) throw new UsageError(`workload context "${context}" is given twice`);
    out.push({ context, clusterName });
  }
  return out;
}

/** Uninstall without --workload: the fleet file's workloads, when it describes this hosting context. */
function fleetFileWorkloads(file: ReturnType<typeof readFleetFile>, hostingName: string): { context: string; clusterName: string }[] {
  if (file?.hostingContext !== hostingName) return [];
  return (file.workloads ?? []).map((w) =>
    typeof w === 'string' ? { context: w, clusterName: w } : { context: w.context, clusterName: w.clusterName ?? w.context },
  );
}

/** The install's (or uninstall's) clusters, from the session's kubeconfig alone (each with the session's write gate). */
export function resolve(session: Session, opts: InstallCommandOptions, fleetFile: string, forUninstall: boolean): Resolved {
  const file = forUninstall ? readFleetFile(fleetFile) : undefined;
  const hostingName = opts.hostingContext ?? file?.hostingContext;
  // An uninstall of the recorded fleet removes what it recorded: its namespace and its control plane's context.
  const recorded = file?.hostingContext === hostingName ? file : undefined;
  const namespace = opts.namespace ?? recorded?.namespace ?? DEFAULT_NAMESPACE;
  if (!NAME.test(namespace)) throw new UsageError(`"${namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  if (!hostingName)
    throw new UsageError(
      `${forUninstall ? 'uninstall' : 'install'} needs --hosting-context (the context of the cluster that hosts the control plane)`,
    );
  const loaded = session.userKubeconfig();
  const known = new Set(contextInfos(loaded.config).map((c) => c.name));
  const check = (name: string, flag: string) => {
    if (!known.has(name))
      throw new UserError(
        `context "${name}" (${flag}) is not in the kubeconfig (${loaded.files.join(', ') || 'none found'}); check the name or --kubeconfig`,
        2,
      );
  };
  check(hostingName, '--hosting-context');
  let workloads = parseWorkloads(opts.workload);
  if (forUninstall && workloads.length === 0) workloads = fleetFileWorkloads(file, hostingName);
  for (const w of workloads) check(w.context, '--workload');
  if (workloads.some((w) => w.context === hostingName))
    throw new UsageError(`"${hostingName}" is the hosting context; a workload cluster must be another context`);
  // An uninstall removes what the fleet file recorded: never from a cluster that is not the one recorded.
  for (const name of [hostingName, ...workloads.map((w) => w.context)]) {
    const problem = identityProblem(name, file?.identities?.[name], loaded.config, fleetFile);
    if (problem) throw new UserError(`${problem.detail}; ${problem.hint}`, 2);
  }
  // Two fleets never share a namespace of a cluster: the install would take over the other's agents, an uninstall delete them.
  const sharing = fleetsSharing(fleetFile, [hostingName, ...workloads.map((w) => w.context)], namespace);
  if (sharing.length > 0) {
    const fix = forUninstall
      ? 'the uninstall would delete its agents there; leave those clusters out with --workload'
      : 'two fleets in one namespace would share their agents; choose another --namespace';
    throw new UserError(`${sharing.join('; ')}: ${fix}`, 2);
  }
  const hosting = { context: hostingName, kc: configForContext(loaded.config, hostingName) };
  const targets = workloads.map((w) => ({ ...w, kc: configForContext(loaded.config, w.context) }));
  for (const t of [hosting, ...targets]) requireCredentials(t.context, t.kc);
  return {
    loaded,
    hosting,
    workloads: targets,
    namespace,
    controlPlaneContext: opts.controlPlaneContext ?? recorded?.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT,
  };
}

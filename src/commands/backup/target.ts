/**
 * The control plane's own API server, as `backup`, `restore` and `uninstall` reach it: the fleet's
 * control-plane context (default `nova`) from your kubeconfig or the kubeconfig the install wrote
 * (`<config>/fleetdeck/<context>.kubeconfig`, recorded in the fleet file).
 */
import fs from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { fleetFilePath } from '../../config/fleet-config.js';
import { UsageError, UserError } from '../../errors.js';
import { configForContext, contextInfos } from '../../kube/config/kubeconfig.js';
import type { FleetTargets } from '../../day2/fleet-of.js';
import { fleetProblemLine } from '../../kube/fleet/fleet.js';
import { requireCredentials, type Session } from '../../session/session.js';
import { controlPlaneKubeconfigPath } from '../install/resolve.js';

export interface ControlPlaneTarget {
  context: string;
  kc: KubeConfig;
}

/**
 * The control plane's context from the kubeconfig the install wrote (read by the session: its
 * write gate goes with it), else from `config` (one of the session's); undefined when neither has it.
 */
export function controlPlaneConfig(
  session: Session,
  context: string,
  installKubeconfig: string,
  config?: KubeConfig,
): KubeConfig | undefined {
  if (fs.existsSync(installKubeconfig)) {
    const written = session.readKubeconfig(installKubeconfig).config;
    if (contextInfos(written).some((c) => c.name === context)) return configForContext(written, context);
  }
  if (config && contextInfos(config).some((c) => c.name === context)) return configForContext(config, context);
  return undefined;
}

/** The fleet's control plane (fleet file or --hosting-context), its credentials checked; `what` names the command in errors. */
export function controlPlaneTarget(sel: Session, what: string): ControlPlaneTarget {
  if (!sel.fleet)
    throw new UsageError(`${what} works on the control plane of a fleet: pass --hosting-context (or install one: fleetdeck install)`);
  // Clusters that are not the ones the fleet file recorded are never acted on (the dashboard shows
  // them); the control plane's own commands need only its hosting cluster and itself.
  const problem = fleetProblemLine(sel.fleet, [sel.fleet.hostingContext, sel.fleet.controlPlaneContext]);
  if (problem) throw new UserError(problem, 2);
  const context = sel.fleet.controlPlaneContext;
  const written = controlPlaneKubeconfigPath(fleetFilePath(), context);
  // Your kubeconfig first (its entry wins, as in the session), then the install's file.
  const kc = contextInfos(sel.config).some((c) => c.name === context) ? sel.kc(context) : controlPlaneConfig(sel, context, written);
  if (!kc)
    throw new UserError(
      `the control plane's context "${context}" is in no kubeconfig (nor in ${written}, where the install writes it); check --control-plane-context or --kubeconfig`,
      2,
    );
  requireCredentials(context, kc);
  return { context, kc };
}

/** The fleet's hosting cluster, control plane and workload clusters, each context's credentials checked. */
export function fleetTargets(sel: Session, what: string): FleetTargets {
  const cp = controlPlaneTarget(sel, what);
  const fleet = sel.fleet;
  if (!fleet)
    throw new UsageError(`${what} works on the control plane of a fleet: pass --hosting-context (or install one: fleetdeck install)`);
  // Every cluster of the fleet is reached: each must be the one the fleet file recorded.
  const problem = fleetProblemLine(fleet);
  if (problem) throw new UserError(problem, 2);
  const kcOf = (context: string) => {
    const kc = sel.kc(context);
    requireCredentials(context, kc);
    return kc;
  };
  return {
    hosting: { context: fleet.hostingContext, kc: kcOf(fleet.hostingContext) },
    controlPlane: cp,
    workloads: fleet.workloads.map((w) => ({ ...w, kc: kcOf(w.context) })),
    namespace: fleet.namespace,
  };
}

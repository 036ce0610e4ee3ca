import path from 'node:path';
import { recordIdentities } from '../../config/fleet-identity.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import { mergeKubeConfigs } from '../../kube/config/kubeconfig.js';
import { writeFleetFile } from '../../config/fleet-config.js';
import { type RowControl, StepError } from '../runner.js';
import type { InstallRun } from './run.js';

/** The fleet the install made, as the fleet file records it. */
function fleetOf(run: InstallRun): FleetConfig {
  const { opts } = run;
  return {
    hostingContext: opts.hosting.context,
    controlPlaneContext: opts.controlPlaneContext,
    namespace: opts.namespace,
    workloads: opts.workloads.map((w) => ({ context: w.context, clusterName: w.clusterName })),
  };
}

/** The fleet recorded in the fleet file, then checked as `fleetdeck status` does, its checklist under the row. */
export async function fleetStep(run: InstallRun, row: RowControl): Promise<string> {
  const { opts } = run;
  const fleet = fleetOf(run);
  const roles = [opts.hosting, ...opts.workloads, ...(run.cpKc ? [{ context: opts.controlPlaneContext, kc: run.cpKc }] : [])];
  const identities = recordIdentities(roles, opts.kubeconfigFiles?.join(path.delimiter));
  // The control plane's context comes from the kubeconfig the install wrote.
  if (identities[opts.controlPlaneContext]) identities[opts.controlPlaneContext]!.kubeconfig = opts.kubeconfigPath;
  writeFleetFile(opts.fleetFile, fleet, { kubeconfig: opts.kubeconfigPath, identities });
  row.progress('checking the fleet as `fleetdeck status` does');
  const kc = mergeKubeConfigs([...[opts.hosting, ...opts.workloads].map((t) => t.kc), run.cpKc!], opts.controlPlaneContext);
  const contexts = [opts.hosting.context, opts.controlPlaneContext, ...opts.workloads.map((x) => x.context)];
  const status = await run.checkFleet(kc, contexts, fleet);
  run.result.status = status.items;
  // The Status checklist under the row, as `fleetdeck status` prints it.
  for (const item of status.items) {
    const child = row.child(`status:${item.id}`, item.label);
    child.set(item.state, item.detail, item.hint);
  }
  const problems = status.items.filter((i) => i.state === 'fail' || i.state === 'warn').map((i) => i.label);
  if (!status.healthy)
    throw new StepError(`the fleet is not healthy: ${problems.join('; ')}`, 'run fleetdeck status for the whole checklist');
  // Warnings (e.g. no SchedulePolicy yet, as the guide's own status shows after an install) are
  // the operator's next steps, shown with their hints in the checklist below: the install is done.
  return `recorded in ${opts.fleetFile}; status healthy${problems.length ? ` (${problems.length} warning${problems.length > 1 ? 's' : ''} below)` : ''}`;
}

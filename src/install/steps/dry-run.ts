import { type Manifest, objectRef } from '../../kube/api/apply.js';
import { agentDryRunStep } from './agents.js';
import { INIT_KUBECONFIG_SECRET, type InstallRun, agentRbac, namespaceObject, schedulerRbac } from './run.js';

/**
 * The rest of a dry run once the control plane is applied: the steps that need a running
 * control plane are skipped, what would be created in it is listed by name, the workload
 * clusters are dry-run.
 */
export async function finishDryRun(run: InstallRun): Promise<void> {
  const { opts, runner, namespace: ns } = run;
  for (const id of ['components', 'endpoint', 'ready']) runner.markSkipped(id, 'dry run');
  runner.markSkipped(
    'kubeconfig',
    `dry run: would write ${opts.kubeconfigPath} (0600)${opts.mergeKubeconfig ? ` and merge it into ${opts.mergeKubeconfig}` : ''}`,
  );
  // The control plane does not answer yet: what will be created in it, by name.
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns } } as Manifest;
  const inControlPlane = [...(run.bundle.crds as Manifest[]), ...agentRbac(), ...schedulerRbac(), namespaceObject(ns), secret];
  run.record(
    opts.controlPlaneContext,
    inControlPlane.map((o) => ({ ref: objectRef(o), action: 'created' as const })),
  );
  runner.markSkipped('crds', `dry run: ${inControlPlane.length} objects to create in the control plane (${opts.controlPlaneContext})`);
  for (const w of opts.workloads) await runner.run(`agent:${w.context}`, () => agentDryRunStep(run, w));
  runner.markSkipped('fleet', `dry run: would record the fleet in ${opts.fleetFile}`);
}

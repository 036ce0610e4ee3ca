import type { CheckItem } from '../checklist/checklist.js';
import type { Manifest } from '../kube/api/apply.js';
import { forNamespace, loadBundle, withHA, withoutHA } from './bundle.js';
import { type InstallOptions, installSteps } from './plan.js';
import { StepError, StepRunner } from './runner.js';
import { agentStep } from './steps/agents.js';
import { certificatesStep } from './steps/certificates.js';
import { controlPlaneStep, readyStep, waitComponents } from './steps/control-plane.js';
import { crdsStep } from './steps/crds.js';
import { finishDryRun } from './steps/dry-run.js';
import { controlPlaneConfig, endpointStep } from './steps/endpoint.js';
import { fleetStep } from './steps/fleet.js';
import { kubeconfigStep } from './steps/kubeconfig.js';
import { namespaceStep } from './steps/namespace.js';
import { type FleetStatusCheck, hostOf, InstallRun, type InstallResult } from './steps/run.js';
import { serviceStep } from './steps/service.js';

export { agentRbac, INIT_KUBECONFIG_SECRET, type FleetStatusCheck, type InstallResult } from './steps/run.js';

/** Every step in order; a dry run ends once the control plane is applied. */
async function runSteps(run: InstallRun): Promise<void> {
  const { opts, runner } = run;
  run.bundle = await loadBundle(opts.bundleDir);
  const cp = run.bundle.controlPlane;
  run.controlPlane = forNamespace(
    opts.ha ? withHA(cp, { replicas: 3, topologyKey: opts.topologyKey }) : withoutHA(cp),
    opts.namespace,
  ) as Manifest[];

  await runner.run('namespace', () => namespaceStep(run));
  await runner.run('service', (row) => serviceStep(run, row));
  if (run.address) run.result.address = hostOf(run.address);
  await runner.run('certs', (row) => certificatesStep(run, row));
  await runner.run('control-plane', () => controlPlaneStep(run));
  if (opts.dryRun) return finishDryRun(run);

  await runner.run('components', (row) => waitComponents(run, row));
  controlPlaneConfig(run);
  await runner.run('endpoint', (row) => endpointStep(run, row));
  await runner.run('kubeconfig', () => kubeconfigStep(run));
  await runner.run('crds', (row) => crdsStep(run, row));
  await runner.run('ready', (row) => readyStep(run, row));
  for (const w of opts.workloads) await runner.run(`agent:${w.context}`, (row) => agentStep(run, w, row));
  await runner.run('fleet', (row) => fleetStep(run, row));
}

/**
 * The install, as the guide's steps, each a live row: namespace, the API server's
 * LoadBalancer Service and its address, certificates (existing ones reused), the control plane
 * (HA or not), its components running, its endpoint answering, its kubeconfig, the CRDs, every
 * workload cluster's agent registered and Ready, and the fleet recorded and checked (by
 * `checkFleet`, as `fleetdeck status` checks it).
 *
 * Every step is idempotent (server-side apply, certificates read back from their Secrets), so
 * running it again after an interruption — a SIGKILL included — picks up where it stopped and
 * creates no duplicates. A dry run reports every object it would create or change and changes
 * nothing.
 */
export async function runInstall(
  opts: InstallOptions,
  publish: (items: CheckItem[]) => void,
  checkFleet: FleetStatusCheck,
  signal?: AbortSignal,
): Promise<InstallResult> {
  const runner = new StepRunner(publish);
  const run = new InstallRun(opts, runner, checkFleet, signal);
  const { result } = run;
  runner.plan(installSteps(opts));
  try {
    await runSteps(run);
    result.ok = true;
  } catch (err) {
    if (!(err instanceof StepError) && runner.items().every((i) => i.state !== 'fail')) {
      // A failure before any step ran (e.g. the bundle): say so on the first row.
      await runner.run('namespace', () => Promise.reject(err)).catch(() => {});
    }
    result.ok = false;
  } finally {
    runner.stop();
    result.steps = runner.items();
  }
  return result;
}

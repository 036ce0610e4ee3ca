import { serverVersion } from '../../kube/api/discovery.js';
import { kubeConfigFromString } from '../../kube/config/kubeconfig.js';
import { retryUntil } from '../../kube/watch/wait.js';
import { adminKubeconfig } from '../certs/index.js';
import { HINTS, TIMEOUTS } from '../plan.js';
import { type RowControl, StepError } from '../runner.js';
import { type InstallRun, messageOf } from './run.js';

/** The control plane's admin KubeConfig, through its load balancer (behind the hosting context's write gate). */
export function controlPlaneConfig(run: InstallRun): void {
  run.server = `https://${run.address!.ip ?? run.address!.hostname}:443`;
  run.cpKc = kubeConfigFromString(adminKubeconfig(run.certs!, run.server, run.opts.controlPlaneContext), run.opts.hosting.kc);
}

/** The control plane answers at its load-balancer address (retried until it does). */
export async function endpointStep(run: InstallRun, row: RowControl): Promise<string> {
  const version = await retryUntil(() => serverVersion(run.cpKc!, 5_000), {
    timeoutMs: TIMEOUTS.endpoint,
    ...(run.signal ? { signal: run.signal } : {}),
    onError: (line) => row.progress(`not yet: ${line}`),
  }).catch((err: unknown) => {
    throw new StepError(messageOf(err), HINTS.endpoint);
  });
  return `${version} at ${run.server}`;
}

import type { Manifest } from '../../kube/api/apply.js';
import { type ServiceJson, loadBalancerAddress, readServiceAddress } from '../../kube/api/service.js';
import { ServerLost, waitFor } from '../../kube/watch/wait.js';
import { forNamespace } from '../bundle.js';
import { HINTS, lostHint, TIMEOUTS } from '../plan.js';
import { type RowControl, StepError } from '../runner.js';
import { type InstallRun, hostOf, messageOf, summarize } from './run.js';

/** Waits until the Service has an external address; the LoadBalancer hint shows after 30 s. */
async function waitForAddress(run: InstallRun, svc: Manifest, row: RowControl): Promise<void> {
  row.progress('waiting for an external address');
  row.hint(undefined);
  const hintLater = setTimeout(() => row.hint(HINTS.loadBalancer), 30_000);
  try {
    await waitFor<ServiceJson>({
      kc: run.opts.hosting.kc,
      path: `/api/v1/namespaces/${run.namespace}/services`,
      fieldSelector: `metadata.name=${svc.metadata.name}`,
      timeoutMs: TIMEOUTS.loadBalancer,
      ...(run.signal ? { signal: run.signal } : {}),
      check: (items) => {
        run.address = loadBalancerAddress(items[0]);
        return { done: run.address !== undefined, detail: run.address ? hostOf(run.address) : 'Pending (no ingress address yet)' };
      },
      onProgress: (d) => row.progress(d),
    });
  } catch (err) {
    throw new StepError(messageOf(err), err instanceof ServerLost ? lostHint(run.opts.hosting.context) : HINTS.loadBalancer);
  } finally {
    clearTimeout(hintLater);
  }
}

/** The API server's LoadBalancer Service, and the address it gets (in a dry run: the one it has, if any). */
export async function serviceStep(run: InstallRun, row: RowControl): Promise<string> {
  const [svc] = forNamespace([run.bundle.service], run.namespace) as Manifest[];
  const results = await run.applyHosting([svc!]);
  if (run.opts.dryRun) {
    run.address = await readServiceAddress(run.opts.hosting.kc, run.namespace, svc!.metadata.name);
    const known = run.address ? `; address ${hostOf(run.address)}` : '; its address is known once it exists';
    return `${summarize(results, true)}${known}`;
  }
  await waitForAddress(run, svc!, row);
  return `${run.address!.ip ? 'IP' : 'hostname'} ${hostOf(run.address!)}`;
}

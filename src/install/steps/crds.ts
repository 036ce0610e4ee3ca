import { Applier, type Manifest } from '../../kube/api/apply.js';
import { waitEstablished } from '../../kube/api/crds.js';
import { initKubeconfig } from '../certs/index.js';
import { TIMEOUTS } from '../plan.js';
import type { RowControl } from '../runner.js';
import { INIT_KUBECONFIG_SECRET, type InstallRun, MANAGED_LABELS, agentRbac, namespaceObject, schedulerRbac, summarize } from './run.js';

/** The agents' bootstrap kubeconfig as a Secret of the control plane. */
function initSecret(run: InstallRun): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: INIT_KUBECONFIG_SECRET, namespace: run.namespace, labels: MANAGED_LABELS },
    type: 'Opaque',
    data: { kubeconfig: Buffer.from(initKubeconfig(run.certs!, run.server)).toString('base64') },
  };
}

/** In the control plane: the CRDs (waited for until Established), the agents' RBAC, the namespace and the init kubeconfig. */
export async function crdsStep(run: InstallRun, row: RowControl): Promise<string> {
  const { bundle, opts } = run;
  const objs = [...(bundle.crds as Manifest[]), ...agentRbac(), ...schedulerRbac(), namespaceObject(run.namespace), initSecret(run)];
  const results = await run.applyAll(new Applier(run.cpKc!), opts.controlPlaneContext, objs);
  row.progress('waiting for the CRDs to be Established');
  const names = new Set(bundle.crds.map((c) => c.metadata.name));
  await waitEstablished(run.cpKc!, names, {
    timeoutMs: TIMEOUTS.crds,
    ...(run.signal ? { signal: run.signal } : {}),
    onProgress: (d) => row.progress(d),
  });
  return `${[...names].map((n) => n.split('.')[0]).join(', ')} Established; ${summarize(results, false)}`;
}

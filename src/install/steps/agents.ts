import { Applier, type ApplyResult, type Manifest, objectRef } from '../../kube/api/apply.js';
import { readSecret } from '../../kube/certs/secret.js';
import { ServerLost, waitFor } from '../../kube/watch/wait.js';
import { forNamespace, withClusterName } from '../bundle.js';
import { HINTS, lostHint, TIMEOUTS, type WorkloadTarget } from '../plan.js';
import { type RowControl, type RowHandle, StepError } from '../runner.js';
import { INIT_KUBECONFIG_SECRET, type InstallRun, MANAGED_LABELS, messageOf, namespaceObject, summarize } from './run.js';

interface DeploymentJson {
  metadata?: { name?: string };
  spec?: { replicas?: number };
  status?: { readyReplicas?: number };
}

interface ClusterJson {
  metadata?: { name?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

/** The init kubeconfig Secret of the control plane, as a copy for a workload cluster. */
async function initSecretCopy(run: InstallRun): Promise<Manifest> {
  const source = await readSecret(run.cpKc!, run.namespace, INIT_KUBECONFIG_SECRET);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: INIT_KUBECONFIG_SECRET, namespace: run.namespace, labels: MANAGED_LABELS },
    type: source.type ?? 'Opaque',
    data: source.data ?? {},
  };
}

/** Waits until the agent's Deployment has its replicas ready. */
async function waitAgentReady(run: InstallRun, w: WorkloadTarget, name: string, row: RowHandle): Promise<void> {
  const ns = run.namespace;
  try {
    const detail = await waitFor<DeploymentJson>({
      kc: w.kc,
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      fieldSelector: `metadata.name=${name}`,
      timeoutMs: TIMEOUTS.agent,
      ...(run.signal ? { signal: run.signal } : {}),
      check: (items) => {
        const d = items[0];
        const want = d?.spec?.replicas ?? 1;
        const have = d?.status?.readyReplicas ?? 0;
        return { done: !!d && have >= want, detail: `${have}/${want} ready` };
      },
      onProgress: (d) => row.progress(d),
    });
    row.set('ok', detail);
  } catch (err) {
    row.set('fail', messageOf(err));
    throw new StepError(
      `agent in ${w.context} not Ready: ${messageOf(err)}`,
      err instanceof ServerLost ? lostHint(w.context) : `kubectl --context=${w.context} -n ${ns} describe deploy/nova-agent`,
    );
  }
}

/** Waits until the workload cluster's Cluster object is registered and Ready in the control plane. */
async function waitClusterReady(run: InstallRun, w: WorkloadTarget, row: RowHandle): Promise<void> {
  const hint = HINTS.agent.replace('<workload>', w.context).replace('<namespace>', run.namespace);
  try {
    await waitFor<ClusterJson>({
      kc: run.cpKc!,
      path: '/apis/cluster.elotl.co/v1alpha1/clusters',
      fieldSelector: `metadata.name=${w.clusterName}`,
      timeoutMs: TIMEOUTS.agent,
      ...(run.signal ? { signal: run.signal } : {}),
      check: (items) => {
        const ready = items[0]?.status?.conditions?.find((c) => c.type === 'Ready');
        return {
          done: ready?.status === 'True',
          detail: items[0] ? `registered, Ready=${ready?.status ?? 'unknown'}` : 'not registered yet',
        };
      },
      onProgress: (d) => row.progress(d),
    });
    row.set('ok', 'Ready');
  } catch (err) {
    const why = err instanceof ServerLost ? lostHint(run.opts.controlPlaneContext) : hint;
    row.set('fail', messageOf(err), why);
    throw new StepError(`cluster ${w.clusterName} did not register`, why);
  }
}

/** One workload cluster: namespace, the init kubeconfig, the agent, and its Cluster Ready in the control plane. */
export async function agentStep(run: InstallRun, w: WorkloadTarget, row: RowControl): Promise<string> {
  const ns = run.namespace;
  const applier = new Applier(w.kc);
  const steps = {
    ns: row.child(`${w.context}:ns`, 'Namespace'),
    secret: row.child(`${w.context}:secret`, 'Init kubeconfig copied from the control plane'),
    agent: row.child(`${w.context}:agent`, 'Agent applied'),
    ready: row.child(`${w.context}:ready`, 'Agent Ready'),
    cluster: row.child(`${w.context}:cluster`, `Cluster ${w.clusterName} registered and Ready`),
  };
  steps.ns.set('running');
  steps.ns.set('ok', (await run.applyAll(applier, w.context, [namespaceObject(ns)]))[0]?.action);

  steps.secret.set('running');
  const copy = await initSecretCopy(run);
  steps.secret.set('ok', (await run.applyAll(applier, w.context, [copy]))[0]?.action);

  steps.agent.set('running');
  const agentObjs = forNamespace(withClusterName(run.bundle.agent, w.clusterName), ns) as Manifest[];
  steps.agent.set('ok', summarize(await run.applyAll(applier, w.context, agentObjs), false));

  steps.ready.set('running');
  const deployment = agentObjs.find((o) => o.kind === 'Deployment');
  await waitAgentReady(run, w, deployment?.metadata.name ?? 'nova-agent', steps.ready);

  steps.cluster.set('running');
  await waitClusterReady(run, w, steps.cluster);
  return `${w.clusterName} Ready in the control plane`;
}

/** A dry run of one workload cluster: its objects, and whether the init kubeconfig copy exists. */
export async function agentDryRunStep(run: InstallRun, w: WorkloadTarget): Promise<string> {
  const ns = run.namespace;
  const objs = [namespaceObject(ns), ...(forNamespace(withClusterName(run.bundle.agent, w.clusterName), ns) as Manifest[])];
  const a = new Applier(w.kc);
  const results = await run.applyAll(a, w.context, objs);
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns } } as Manifest;
  const copy: ApplyResult = { ref: objectRef(secret), action: (await a.read(secret)) ? 'configured' : 'created' };
  results.push(copy);
  run.record(w.context, [copy]);
  return `dry run: ${summarize(results, true)}`;
}

/**
 * A workload cluster's agent restarted to load the renewed init kubeconfig, and confirmed
 * re-connected: its pods Ready again (the agent is Ready once it reaches the control plane) and
 * its Cluster object Ready in the control plane with a heartbeat from after the restart.
 */
import type { WorkloadTarget } from '../../install/plan.js';
import { type RowControl, StepError } from '../../install/runner.js';
import { statusCode } from '../../kube/transport/client.js';
import { deletePod } from '../../kube/pods/pod-ops.js';
import { waitFor } from '../../kube/watch/wait.js';
import { AGENT_SELECTOR, agentPods } from './pods.js';
import type { RenewTarget } from './target.js';

const TIMEOUT_MS = 300_000;

interface PodJson {
  metadata?: { name?: string; uid?: string; deletionTimestamp?: string };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

interface ClusterJson {
  metadata?: { name?: string };
  status?: { lastUpdateTime?: string; conditions?: { type: string; status: string }[] };
}

/** Restarts the agent pods in `stale` (one at a time), waits for them Ready, then for the Cluster's fresh Ready heartbeat. */
export async function reconnectAgent(
  t: RenewTarget,
  w: WorkloadTarget,
  stale: readonly string[],
  row: RowControl,
  signal?: AbortSignal,
): Promise<string> {
  const since = new Date(Math.floor(Date.now() / 1000) * 1000);
  const pods = await agentPods(w.kc, t.namespace);
  const todo = pods.filter((p) => stale.includes(p.uid));
  const restarted = row.child(`${w.context}:pods`, 'Agent restarted');
  restarted.set('running');
  for (const p of todo) {
    await deletePod(w.kc, t.namespace, p.name, { uid: p.uid }).catch((err: unknown) => {
      if (statusCode(err) !== 404) throw err;
    });
  }
  const want = Math.max(pods.length, 1);
  await waitFor<PodJson>({
    kc: w.kc,
    path: `/api/v1/namespaces/${t.namespace}/pods`,
    labelSelector: AGENT_SELECTOR,
    timeoutMs: TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    check: (items) => {
      const live = items.filter((p) => !p.metadata?.deletionTimestamp && !stale.includes(p.metadata?.uid ?? ''));
      const ready = live.filter(
        (p) => p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      ).length;
      return { done: ready >= want, detail: `${ready}/${want} Ready` };
    },
    onProgress: (d) => restarted.progress(d),
  }).catch((err: unknown) => {
    restarted.set('fail', err instanceof Error ? err.message : String(err));
    throw new StepError(
      `the agent in ${w.context} is not Ready again`,
      `kubectl --context=${w.context} -n ${t.namespace} logs deploy/nova-agent`,
    );
  });
  restarted.set('ok', todo.length ? `${todo.length} pod(s) restarted, Ready` : 'already running with the new kubeconfig');

  const cluster = row.child(`${w.context}:cluster`, `Cluster ${w.clusterName} Ready in the control plane`);
  cluster.set('running');
  await waitFor<ClusterJson>({
    kc: t.controlPlane.kc,
    path: '/apis/cluster.elotl.co/v1alpha1/clusters',
    fieldSelector: `metadata.name=${w.clusterName}`,
    timeoutMs: TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    check: (items) => {
      const c = items[0];
      const ready = c?.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True';
      const beat = Date.parse(c?.status?.lastUpdateTime ?? '');
      const fresh = !Number.isNaN(beat) && beat >= since.getTime();
      return { done: ready && fresh, detail: ready ? (fresh ? 'Ready' : 'waiting for a heartbeat after the restart') : 'not Ready' };
    },
    onProgress: (d) => cluster.progress(d),
  }).catch((err: unknown) => {
    cluster.set('fail', err instanceof Error ? err.message : String(err));
    throw new StepError(
      `cluster ${w.clusterName} did not reconnect`,
      `kubectl --context=${w.context} -n ${t.namespace} logs deploy/nova-agent`,
    );
  });
  cluster.set('ok', 'Ready, heartbeat after the restart');
  return `${w.clusterName} reconnected with the new certificate`;
}

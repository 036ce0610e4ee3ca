/**
 * A control plane on the sandbox with both workload clusters connected as Nova clusters `w1`
 * and `w2`, for the placement tests: apply objects to the control plane or a workload cluster,
 * read a copy, read `fleetdeck workloads -o json`.
 */
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { Applier, type Manifest } from '../../../src/kube/api/apply.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { makeClient } from '../../../src/kube/transport/client.js';
import type { WorkloadRow } from '../../../src/placement/rows.js';
import { eventually } from '../cli/cli.js';
import { novaFleet } from './nova-fleet.js';
import { expectMatchesSchema } from '../schema.js';
import { sandbox } from './fleet.js';

export const W1 = 'kind-workload-1';
export const W2 = 'kind-workload-2';

export function placementFleet(prefix: string) {
  const kubeconfig = sandbox().kubeconfig;
  const fleet = novaFleet(kubeconfig, prefix);
  const ns = `shop-${fleet.namespace.split('-').pop()}`;
  const ctx = (context: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, context);
  const apply = async (kc: KubeConfig, yaml: string) => {
    const a = new Applier(kc);
    for (const doc of parseAllDocuments(yaml.replaceAll('$NS', ns))) await a.apply(doc.toJS() as Manifest);
  };
  async function rows(): Promise<{ code: number | null; rows: WorkloadRow[]; stderr: string }> {
    const r = await fleet.cli(['workloads', '-o', 'json']);
    const doc = r.stdout ? (JSON.parse(r.stdout) as { workloads: WorkloadRow[] }) : undefined;
    if (doc) expectMatchesSchema(doc, 'workloads');
    return { code: r.code, rows: doc?.workloads ?? [], stderr: r.stderr };
  }
  return {
    fleet,
    ns,
    ctx,
    install: () => fleet.install(['--workload', `${W1}=w1,${W2}=w2`]),
    /** Objects into the control plane (`$NS`: the test's namespace). */
    toControlPlane: (yaml: string) => apply(fleet.cpKc(), yaml),
    toCluster: (context: string, yaml: string) => apply(ctx(context), yaml),
    /** The Deployment copy in a workload cluster, or undefined. */
    copy: (context: string, name: string) =>
      makeClient(ctx(context), AppsV1Api)
        .readNamespacedDeployment({ name, namespace: ns })
        .catch(() => undefined),
    rows,
    /** Waits until `fleetdeck workloads` has the row of `name` (kind Deployment unless given) passing `ok`. */
    row(name: string, ok: (r: WorkloadRow) => boolean, kind = 'Deployment', timeoutMs = 90_000): Promise<WorkloadRow> {
      return eventually(
        `the row of ${kind} ${name}`,
        async () => (await rows()).rows.find((r) => r.kind === kind && r.name === name && ok(r)),
        timeoutMs,
        500,
      );
    },
    async close() {
      await fleet.close();
      for (const c of [W1, W2])
        await makeClient(ctx(c), CoreV1Api)
          .deleteNamespace({ name: ns })
          .catch(() => undefined);
    },
  };
}

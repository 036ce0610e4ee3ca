/**
 * What the drain decisions need to know about a node's pods: the pods themselves and, for
 * DaemonSet pods, whether their DaemonSet exists (kubectl's daemonSetFilter asks the same).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { daemonSetExists, listNodePods } from '../../kube/pods/pod-ops.js';
import { classifyPods, controllerOf, type DrainFlags, type DrainPod, type OwnerInfo, type PodClassification } from './filters.js';

/** For every DaemonSet-controlled pod: does its DaemonSet exist? (Each DaemonSet read once.) */
export async function ownerInfo(kc: KubeConfig, pods: readonly DrainPod[]): Promise<Map<string, OwnerInfo>> {
  const seen = new Map<string, Promise<'exists' | 'missing'>>();
  const out = new Map<string, OwnerInfo>();
  await Promise.all(
    pods.map(async (p) => {
      const ref = controllerOf(p);
      if (ref?.kind !== 'DaemonSet') return;
      const namespace = p.metadata?.namespace ?? '';
      const key = `${namespace}/${ref.name}`;
      let lookup = seen.get(key);
      if (!lookup) {
        lookup = daemonSetExists(kc, namespace, ref.name);
        seen.set(key, lookup);
      }
      out.set(p.metadata?.uid ?? '', { daemonSet: await lookup });
    }),
  );
  return out;
}

/** The pods of a node and what a drain with these flags would do with each (no PDB check). */
export async function classifyNode(
  kc: KubeConfig,
  node: string,
  flags: DrainFlags,
): Promise<{ pods: DrainPod[]; classes: PodClassification[] }> {
  const pods = await listNodePods(kc, node);
  const owners = await ownerInfo(kc, pods);
  return { pods, classes: classifyPods(pods, owners, flags) };
}

/**
 * Marks a rollout puts on Nodes: labels (a merge patch; null removes one) and a taint (the
 * taint list replaced over the Node's resourceVersion, read again after a 409: Node.spec.taints
 * has no merge key, so a patch would replace other writers' taints).
 */
import type { CoreV1Api, KubeConfig, V1Taint } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '../transport/client-node.js';
import { lazyClient, statusCode } from '../transport/client.js';

const REQUEST_TIMEOUT_MS = 30_000;
const CONFLICT_RETRIES = 8;
const core = (kc: KubeConfig) =>
  lazyClient<CoreV1Api>(kc, async () => (await import('../transport/api-classes.js')).CoreV1Api, REQUEST_TIMEOUT_MS);

/** Sets labels on a node (a null value removes the label). False when the node is gone. */
export async function labelNode(kc: KubeConfig, node: string, labels: Record<string, string | null>): Promise<boolean> {
  if (Object.keys(labels).length === 0) return true;
  try {
    await core(kc).patchNode({ name: node, body: { metadata: { labels } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    return true;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

export interface NodeTaint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/**
 * Puts `taint` on the node (replacing one with the same key and effect), or removes the taints
 * with `key` when `taint` is undefined. Resolves false when the node is gone; a no-op writes nothing.
 */
export async function setNodeTaint(kc: KubeConfig, node: string, key: string, taint: NodeTaint | undefined): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let current: Awaited<ReturnType<CoreV1Api['readNode']>>;
    try {
      current = await core(kc).readNode({ name: node });
    } catch (err) {
      if (statusCode(err) === 404) return false;
      throw err;
    }
    const taints: V1Taint[] = current.spec?.taints ?? [];
    const others = taints.filter((t) => !(t.key === key && (!taint || t.effect === taint.effect)));
    const next: V1Taint[] = taint
      ? [...others, { key: taint.key, effect: taint.effect, ...(taint.value ? { value: taint.value } : {}) }]
      : others;
    const same =
      next.length === taints.length &&
      next.every((t) => taints.some((x) => x.key === t.key && x.effect === t.effect && (x.value ?? '') === (t.value ?? '')));
    if (same) return true;
    try {
      await core(kc).patchNode(
        {
          name: node,
          body: [
            { op: 'test', path: '/metadata/resourceVersion', value: current.metadata?.resourceVersion },
            current.spec
              ? { op: current.spec.taints ? 'replace' : 'add', path: '/spec/taints', value: next }
              : { op: 'add', path: '/spec', value: { taints: next } },
          ],
        },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      );
      return true;
    } catch (err) {
      const code = statusCode(err);
      if (code === 404) return false;
      // A failed test (another writer in between) is a 422 for a JSON patch; a 409 for a conflict.
      if ((code === 409 || code === 422) && attempt < CONFLICT_RETRIES) continue;
      throw err;
    }
  }
}

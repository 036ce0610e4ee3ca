/** The one write placement makes: the annotation `nova.elotl.co/cluster` on a control-plane object (through the session's write gate). */
import { type KubeConfig, type KubernetesObject, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { FIELD_MANAGER } from '../api/apply.js';
import { makeClient } from '../transport/client.js';

export async function setAnnotation(
  kc: KubeConfig,
  ref: { apiVersion: string; kind: string; namespace?: string; name: string },
  key: string,
  value: string,
): Promise<void> {
  const body = {
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { name: ref.name, namespace: ref.namespace, annotations: { [key]: value } },
  };
  await makeClient(kc, KubernetesObjectApi, 30_000).patch(
    body as KubernetesObject,
    undefined,
    undefined,
    FIELD_MANAGER,
    undefined,
    PatchStrategy.MergePatch,
  );
}

/**
 * The copy of a control-plane object an agent keeps in its workload cluster: the object
 * without what the control plane's server owns (uid, resourceVersion, status, a Service's
 * cluster IPs, a ServiceAccount's token Secrets) and without the scheduler's markings, with this cluster's share of replicas and
 * the policy's overrides for its topology value, labelled COPY_LABEL (the agent's namespace: two
 * installs' agents in one cluster keep apart) and stamped with a hash of
 * what it was made from (COPY_HASH), so an unchanged source is not written again.
 */
import { createHash } from 'node:crypto';
import type { ApiObject } from '../../../kube/api/api-resources.js';
import { applyOverrides } from '../../../placement/overrides.js';
import { COPY_LABEL, SPREAD_ANNOTATION, STATUS_ANNOTATION_PREFIX, TARGET_LABEL } from '../../../placement/semantics.js';
import type { PolicyView } from '../../../placement/types.js';
import type { Share } from '../../../placement/targets.js';

export const COPY_HASH = 'nova.elotl.co/source-hash';
const DROPPED_ANNOTATIONS = [SPREAD_ANNOTATION, 'kubectl.kubernetes.io/last-applied-configuration', 'deployment.kubernetes.io/revision'];

function cleanAnnotations(a: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a ?? {})) if (!DROPPED_ANNOTATIONS.includes(k) && !k.startsWith(STATUS_ANNOTATION_PREFIX)) out[k] = v;
  return out;
}

/** The copy of `source` for the cluster holding `share` (undefined share: the whole object). */
export function copyOf(source: ApiObject, share: Share | undefined, policy: PolicyView | undefined, owner: string): ApiObject {
  const { metadata, status: _status, ...rest } = source as ApiObject & { status?: unknown };
  const body = structuredClone(rest) as Record<string, unknown>;
  if (source.kind === 'Service') {
    const spec = body.spec as Record<string, unknown> | undefined;
    if (spec) for (const k of ['clusterIP', 'clusterIPs', 'healthCheckNodePort']) delete spec[k];
  }
  // A ServiceAccount's token Secrets are the control plane's: the workload cluster makes its own.
  if (source.kind === 'ServiceAccount') delete body.secrets;
  if (share?.replicas !== undefined && body.spec) (body.spec as Record<string, unknown>).replicas = share.replicas;
  applyOverrides(body, policy, share?.topologyValue);
  const labels: Record<string, string> = { ...(metadata.labels as Record<string, string> | undefined), [COPY_LABEL]: owner };
  delete labels[TARGET_LABEL];
  const annotations = cleanAnnotations(metadata.annotations as Record<string, string> | undefined);
  const hash = createHash('sha256')
    .update(JSON.stringify([body, labels, annotations]))
    .digest('hex')
    .slice(0, 16);
  return {
    ...(body as Omit<ApiObject, 'metadata'>),
    apiVersion: source.apiVersion,
    kind: source.kind,
    metadata: { name: metadata.name, namespace: metadata.namespace, labels, annotations: { ...annotations, [COPY_HASH]: hash } },
  };
}

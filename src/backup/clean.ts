/**
 * What of an object a backup keeps: objects an operator created, without what the server
 * generates. Pure functions: an object in, the cleaned object or the reason it is skipped out.
 */
import type { ApiObject } from '../kube/api/api-resources.js';
import { MATCHING_POLICY_LABEL, SPREAD_ANNOTATION, STATUS_ANNOTATION_PREFIX, TARGET_LABEL } from '../placement/semantics.js';

/** Namespaces the control plane makes for itself: their objects are its own. */
export const BUILT_IN_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

/** Metadata fields the server writes: never backed up. */
const SERVER_METADATA = [
  'managedFields',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'generation',
  'selfLink',
  'ownerReferences',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generateName',
  'finalizers',
];

/** Annotations and labels controllers, Nova's scheduler and agents, or the server add. */
const SERVER_ANNOTATIONS = ['deployment.kubernetes.io/revision', SPREAD_ANNOTATION];
const SERVER_ANNOTATION_PREFIXES = [STATUS_ANNOTATION_PREFIX];
const SERVER_LABELS = ['kubernetes.io/metadata.name', TARGET_LABEL];

/** The install's own objects in the control plane (CRDs, the agents' RBAC, its namespace, the init kubeconfig). */
export const INSTALL_LABEL = { key: 'app.kubernetes.io/managed-by', value: 'fleetdeck' } as const;

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export interface BackupChoice {
  includeSecrets: boolean;
}

export type Judged = { keep: ApiObject } | { skip: string };

type Meta = ApiObject['metadata'] & {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { kind: string; name: string; controller?: boolean }[];
};

/** Why the server, a controller or the install made this object; undefined when an operator did. */
export function generatedBy(obj: ApiObject): string | undefined {
  const m = obj.metadata as Meta;
  const ns = m.namespace;
  if (ns && SYSTEM_NAMESPACES.has(ns)) return `in ${ns} (the control plane's own)`;
  if (obj.kind === 'Namespace' && BUILT_IN_NAMESPACES.has(m.name)) return 'built-in namespace';
  const owner = m.ownerReferences?.find((o) => o.controller);
  if (owner) return `made by its owner (${owner.kind})`;
  if (m.labels?.[INSTALL_LABEL.key] === INSTALL_LABEL.value) return 'made by the install (it makes them again)';
  if (obj.kind === 'ScheduleGroup' && m.labels?.[MATCHING_POLICY_LABEL]) return "made by Nova's scheduler (it makes them again)";
  if (RBAC_KINDS.has(obj.kind) && (m.name.startsWith('system:') || m.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults'))
    return 'built-in RBAC';
  if (obj.kind === 'Secret' && obj.type === 'kubernetes.io/service-account-token') return 'service-account token';
  if (obj.kind === 'ServiceAccount' && m.name === 'default') return "the namespace's default ServiceAccount";
  if (obj.kind === 'ConfigMap' && m.name === 'kube-root-ca.crt') return 'made by the server';
  if (obj.kind === 'Service' && ns === 'default' && m.name === 'kubernetes') return 'made by the server';
  return undefined;
}

function without<T extends Record<string, unknown>>(o: T | undefined, keys: readonly string[]): T | undefined {
  if (!o) return undefined;
  const out = { ...o };
  for (const k of keys) delete out[k];
  return Object.keys(out).length ? out : undefined;
}

/** The kind's own fields the server fills in. */
function cleanKind(obj: ApiObject): ApiObject {
  const out = structuredClone(obj) as Record<string, unknown> & ApiObject;
  const spec = out.spec as Record<string, unknown> | undefined;
  if (obj.kind === 'Namespace') delete out.spec;
  if (obj.kind === 'Service' && spec && spec.clusterIP !== 'None') {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  if (obj.kind === 'ServiceAccount' && Array.isArray(out.secrets)) {
    // Token Secrets the token controller made and listed here are not backed up.
    const own = (out.secrets as { name?: string }[]).filter((s) => !s.name?.startsWith(`${obj.metadata.name}-token-`));
    if (own.length) out.secrets = own;
    else delete out.secrets;
  }
  // An aggregated ClusterRole's rules are filled in by a controller from its aggregationRule.
  if (obj.kind === 'ClusterRole' && out.aggregationRule) delete out.rules;
  return out;
}

/** The object without server bookkeeping: apiVersion, kind, metadata first, then its own fields; no status. */
export function cleanObject(obj: ApiObject): ApiObject {
  const { apiVersion, kind, metadata, status: _status, ...rest } = cleanKind(obj);
  const m = metadata as Meta;
  const meta: ApiObject['metadata'] = { name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}) };
  const labels = without(m.labels, SERVER_LABELS);
  const annotations = without(m.annotations, [
    ...SERVER_ANNOTATIONS,
    ...Object.keys(m.annotations ?? {}).filter((k) => SERVER_ANNOTATION_PREFIXES.some((p) => k.startsWith(p))),
  ]);
  if (labels) meta.labels = labels;
  if (annotations) meta.annotations = annotations;
  for (const k of Object.keys(m)) if (!(k in meta) && !SERVER_METADATA.includes(k) && k !== 'labels' && k !== 'annotations') meta[k] = m[k];
  return { apiVersion, kind, metadata: meta, ...rest };
}

/** Keep (cleaned) or skip, and why. Secrets are kept, with their data, only when asked for. */
export function judge(obj: ApiObject, choice: BackupChoice): Judged {
  const why = generatedBy(obj);
  if (why) return { skip: why };
  if (obj.kind === 'Secret' && !choice.includeSecrets) return { skip: 'data not included (--include-secrets)' };
  return { keep: cleanObject(obj) };
}

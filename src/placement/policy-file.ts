/**
 * `policy check` on a file that holds more than its SchedulePolicy (a namespace, the workloads it
 * is meant for): those objects count as if applied with it, replacing the control plane's objects
 * of the same kind and name, so the check answers for the whole file — as applying it would.
 */
import { parseAllDocuments } from 'yaml';
import type { ApiObject } from '../kube/api/api-resources.js';
import { isWorkload, WORKLOAD_KINDS } from '../kube/nova/kinds.js';
import type { PlacementRead } from '../kube/nova/placement-read.js';
import { refKey } from './types.js';

const sameObject = (a: ApiObject, b: ApiObject) =>
  a.kind === b.kind && a.metadata.name === b.metadata.name && (a.metadata.namespace ?? '') === (b.metadata.namespace ?? '');

/** A workload kind Nova places (by apiVersion and kind), or a Namespace. */
function placeable(o: ApiObject): boolean {
  return WORKLOAD_KINDS.some((k) => k.kind === o.kind && o.apiVersion === (k.group ? `${k.group}/${k.version}` : k.version));
}

/** `read` with the file's namespaces and workloads in it; the refs of those workloads (`Deployment/team-a/web`). */
export function withFileObjects(read: PlacementRead, text: string): { read: PlacementRead; fromFile: string[] } {
  const docs = parseAllDocuments(text)
    .map((d) => d.toJS() as ApiObject | null)
    .filter((o): o is ApiObject => typeof o?.kind === 'string' && typeof o.metadata?.name === 'string');
  const namespaces = docs.filter((o) => o.kind === 'Namespace' && o.apiVersion === 'v1');
  // Without a namespace, as `kubectl apply -f` puts it: in `default`.
  const objects = docs
    .filter(placeable)
    .map((o) => (o.metadata.namespace ? o : { ...o, metadata: { ...o.metadata, namespace: 'default' } }))
    .filter(isWorkload);
  if (namespaces.length + objects.length === 0) return { read, fromFile: [] };
  const cp = {
    ...read.cp,
    namespaces: [...read.cp.namespaces.filter((n) => !namespaces.some((f) => sameObject(f, n))), ...namespaces],
    objects: [...read.cp.objects.filter((o) => !objects.some((f) => sameObject(f, o))), ...objects],
  };
  const fromFile = objects.map((o) =>
    refKey({
      apiVersion: o.apiVersion,
      kind: o.kind,
      ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
      name: o.metadata.name,
    }),
  );
  return { read: { ...read, cp }, fromFile };
}

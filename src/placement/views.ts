/**
 * The API objects of a control plane as placement's plain data: a Cluster's labels (its name
 * as `kubernetes.io/metadata.name`), Ready and Standby conditions and per-node room; a
 * SchedulePolicy's spec; an object's labels, annotations, replicas and pod requests.
 */
import type { ApiObject } from '../kube/api/api-resources.js';
import { bytes, cpuMilli } from '../kube/api/quantity.js';
import { createHash } from 'node:crypto';
import { NAME_LABEL } from './semantics.js';
import type { ClusterView, PolicyView, Room, Taint, Toleration, WorkloadView } from './types.js';

type ResourceList = Record<string, string | number>;

interface ClusterJson extends ApiObject {
  status?: {
    conditions?: { type: string; status: string }[];
    availableResources?: Record<string, ResourceList>;
    nodeTaints?: Record<string, Taint[]>;
  };
}

const condition = (c: ClusterJson, type: string) => c.status?.conditions?.find((x) => x.type === type)?.status;

export function clusterView(c: ClusterJson): ClusterView {
  const available = c.status?.availableResources ?? {};
  const labels = (c.metadata.labels as Record<string, string> | undefined) ?? {};
  return {
    name: c.metadata.name,
    labels: { [NAME_LABEL]: c.metadata.name, ...labels },
    ready: condition(c, 'Ready') === 'True',
    standby: condition(c, 'Standby') === 'True',
    nodes: Object.entries(available).map(([name, r]) => ({
      name,
      available: { cpu: cpuMilli(r.cpu), memory: bytes(r.memory) },
      taints: c.status?.nodeTaints?.[name] ?? [],
    })),
  };
}

export function policyView(p: ApiObject): PolicyView {
  const spec = (p.spec as Omit<PolicyView, 'name' | 'created'> | undefined) ?? {};
  return { ...spec, name: p.metadata.name, created: String(p.metadata.creationTimestamp ?? '') };
}

type ContainerJson = { resources?: { requests?: ResourceList } };

interface PodTemplateJson {
  spec?: {
    containers?: ContainerJson[];
    initContainers?: ContainerJson[];
    tolerations?: Toleration[];
  };
}

/** One pod's requests: the sum over its containers, or its largest init container if larger (as the scheduler counts). */
export function podRequests(t: PodTemplateJson | undefined): Room {
  const sum = (cs: ContainerJson[] | undefined) =>
    (cs ?? []).reduce(
      (r, c) => ({ cpu: r.cpu + cpuMilli(c.resources?.requests?.cpu), memory: r.memory + bytes(c.resources?.requests?.memory) }),
      {
        cpu: 0,
        memory: 0,
      },
    );
  const main = sum(t?.spec?.containers);
  const init = (t?.spec?.initContainers ?? []).map((c) => sum([c]));
  return init.reduce((r, i) => ({ cpu: Math.max(r.cpu, i.cpu), memory: Math.max(r.memory, i.memory) }), main);
}

const POD_CONTROLLERS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet', 'Job']);

/** 12 hex digits of the spec's JSON. */
export const specHash = (spec: unknown) => createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12);

export function workloadView(o: ApiObject): WorkloadView {
  const spec = o.spec as { replicas?: number; parallelism?: number; template?: PodTemplateJson } | undefined;
  const base: WorkloadView = {
    ref: {
      apiVersion: o.apiVersion,
      kind: o.kind,
      ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
      name: o.metadata.name,
    },
    labels: (o.metadata.labels as Record<string, string> | undefined) ?? {},
    annotations: (o.metadata.annotations as Record<string, string> | undefined) ?? {},
    ...(o.spec ? { specHash: specHash(o.spec) } : {}),
  };
  if (!POD_CONTROLLERS.has(o.kind)) return base;
  const replicas = o.kind === 'Job' ? (spec?.parallelism ?? 1) : o.kind === 'DaemonSet' ? 1 : (spec?.replicas ?? 1);
  return { ...base, replicas, podRequests: podRequests(spec?.template), tolerations: spec?.template?.spec?.tolerations ?? [] };
}

/** A namespace's labels by its name, as the control plane has them. */
export function namespaceLabelsOf(namespaces: readonly ApiObject[]): (ns: string) => Record<string, string> | undefined {
  const byName = new Map(namespaces.map((n) => [n.metadata.name, (n.metadata.labels as Record<string, string> | undefined) ?? {}]));
  return (ns) => byName.get(ns);
}

/** When an Event was last seen (RFC 3339), for ordering. */
export const eventTime = (e: ApiObject) => String(e.lastTimestamp ?? e.eventTime ?? '');

/** The objects of an install bundle as read from its manifests, and what the loader, the transforms and the permissions share. */

/** The node label the HA control plane spreads its pods over, as Nova's cp-ha overlay. */
export const DEFAULT_TOPOLOGY_KEY = 'topology.kubernetes.io/zone';

/** Replicas of each control plane component (and etcd members) with HA. */
export const DEFAULT_HA_REPLICAS = 3;

/** The file names kustomize recognises as a kustomization. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Object metadata as read from a manifest. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** One Kubernetes object of a manifest, as parsed (plain JSON-like data). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** The install bundle: what the installer creates, by where it goes. */
export interface Bundle {
  /** The API server's LoadBalancer Service (`apiserver`), created on its own before anything else. */
  service: KubeObject;
  /** The rest of base/control-plane for the hosting cluster: etcd, API server, controller manager, scheduler. */
  controlPlane: KubeObject[];
  /** The CustomResourceDefinitions of base/control-plane, installed in the Nova control plane itself. */
  crds: KubeObject[];
  /** base/agent, for each workload cluster. */
  agent: KubeObject[];
  /** The bundle's directory (absolute). */
  source: string;
  /** The overlays honoured (`overlays/cp-ha`, the first `overlays/workload-cluster-*`) and their kustomization fields. */
  overlays?: { name: string; fields: string[] }[];
}

/** Options of {@link loadBundle}. */
export interface LoadBundleOptions {
  /** The kubectl to render kustomization directories with: a name looked up on PATH, or a path. Default `kubectl`. */
  kubectl?: string;
}

/** Options of {@link withHA}. */
export interface HAOptions {
  /** Replicas of each component and etcd members. Default 3. */
  replicas?: number;
  /** The node label pods of one component must not share. Default `topology.kubernetes.io/zone`. */
  topologyKey?: string;
}

/** One permission to check with a SelfSubjectAccessReview. */
export interface Permission {
  /** API group, `''` for the core group. */
  group: string;
  /** Resource (plural, lower case), e.g. `deployments`. */
  resource: string;
  verb: string;
  /** Set for namespaced resources: the install namespace. Absent: cluster-wide. */
  namespace?: string;
  /** Why the install needs it, for a hint when it is missing. */
  reason: string;
}

/** What the install needs in each kind of cluster. */
export interface RequiredPermissions {
  /** In the hosting cluster (the control plane's namespace, Service, Secrets, workloads). */
  hosting: Permission[];
  /** In each workload cluster (namespace, init kubeconfig Secret, the agent and its RBAC). */
  workload: Permission[];
}

/** The API group of an object (`''` for the core group). */
export function groupOf(o: KubeObject): string {
  const slash = o.apiVersion.indexOf('/');
  return slash < 0 ? '' : o.apiVersion.slice(0, slash);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

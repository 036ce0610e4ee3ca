/**
 * The install's prerequisite checks: a checklist of everything the hosting and workload
 * clusters must offer before anything changes. The decisions are pure functions (one per
 * check) over small summaries; `runPrechecks` gathers the summaries from the clusters,
 * concurrently per context, and reports every item as it moves pending → running → result.
 */
import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { CheckItem, CheckState } from '../checklist/checklist.js';
import { DEFAULT_TIMEOUT_MS, describeError, makeClient, makeJsonClient, statusCode, type JsonClient } from '../kube/client.js';
import { serverVersion } from '../kube/discovery.js';
import { listJsonPaged } from '../kube/list.js';
import {
  NOVA_VERSION,
  SUPPORT_MATRIX,
  describeRange,
  formatMinor,
  isSupported,
  parseKubeVersion,
  supportEntry,
  type SupportEntry,
} from './support-matrix.js';

// ---------------------------------------------------------------------------------------------
// Types

/** One permission the install needs, asked of the API server as a SelfSubjectAccessReview. */
export interface Permission {
  /** API group; `''` for the core group. */
  group: string;
  /** Plural resource, e.g. `statefulsets`. */
  resource: string;
  verb: string;
  /** Namespace the permission is needed in; omitted for cluster-scoped resources or all namespaces. */
  namespace?: string;
  /** Subresource, e.g. `status` or `eviction`. */
  subresource?: string;
}

/** A kube context to check: its name and a KubeConfig holding only it (see configForContext). */
export interface PrecheckContext {
  name: string;
  kc: KubeConfig;
}

/** What to check. */
export interface PrecheckInput {
  hosting: PrecheckContext;
  workloads: PrecheckContext[];
  /** The install namespace (hosting and workload clusters). */
  namespace: string;
  /** Highly available control plane: 3 replicas spread over distinct `topologyKey` values. */
  ha: boolean;
  /** Node label the HA replicas are spread over, e.g. `topology.kubernetes.io/zone`. */
  topologyKey: string;
  /** Permissions the install needs in the hosting cluster and in each workload cluster. */
  permissions: { hosting: Permission[]; workload: Permission[] };
  /** Timeout of each request; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Stops starting new checks; runPrechecks then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The checklist and what it means for the install. */
export interface PrecheckResult {
  items: CheckItem[];
  /** Some item failed: the install must not start. */
  blocking: boolean;
  /** Some item warned: the install should ask before it starts. */
  warnings: boolean;
}

/** The outcome of one check, without its id and label. */
export interface Verdict {
  state: CheckState;
  detail?: string;
  hint?: string;
  children?: CheckItem[];
}

/** What the checks need to know about a node. */
export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
  /** Cordoned. */
  unschedulable?: boolean;
  taints?: { key: string; value?: string; effect: string }[];
  providerID?: string;
}

/** What the checks need to know about a StorageClass. */
export interface StorageClassInfo {
  name: string;
  annotations?: Record<string, string>;
  provisioner?: string;
}

/** What the checks need to know about an IngressClass. */
export interface IngressClassInfo {
  name: string;
  controller?: string;
  isDefault?: boolean;
}

/** A LoadBalancer Service that got an address: proof that load balancers work. */
export interface LoadBalancerEvidence {
  namespace: string;
  name: string;
  /** The IP or hostname it was given. */
  address: string;
}

/** The answer to one SelfSubjectAccessReview. */
export interface AccessResult {
  permission: Permission;
  allowed: boolean;
  /** Set when the review itself failed: the permission is unknown. */
  error?: string;
}

// ---------------------------------------------------------------------------------------------
// Pure decisions

/** How many distinct topology values HA needs (3 replicas, one per value). */
export const HA_REPLICAS = 3;

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/**
 * Reachability of a context from its `/version` answer or the error instead.
 * A failure is one line: the error, never a stack.
 */
export function reachableCheck(context: string, outcome: { version: string } | { error: unknown }): Verdict {
  if ('version' in outcome) return { state: 'ok', detail: outcome.version };
  return {
    state: 'fail',
    detail: oneLine(describeError(outcome.error)),
    hint: `check the server address and credentials of context ${context}: kubectl --context ${context} version`,
  };
}

/**
 * The hosting cluster's server version against the support matrix: ok inside the range the
 * Nova release supports, a warning (naming the range) outside it or when the version is unknown.
 */
export function versionCheck(version: string, matrix: readonly SupportEntry[] = SUPPORT_MATRIX, nova: string = NOVA_VERSION): Verdict {
  const entry = supportEntry(nova, matrix);
  if (!entry) {
    return { state: 'warn', detail: version, hint: `the support matrix has no row for Nova ${nova}; check the release notes for supported Kubernetes versions` };
  }
  const range = describeRange(entry);
  const parsed = parseKubeVersion(version);
  if (!parsed) {
    return { state: 'warn', detail: `unknown version "${version}"`, hint: `Nova ${nova} supports Kubernetes ${range}; check the server version with kubectl version` };
  }
  if (isSupported(version, entry)) return { state: 'ok', detail: `${version} (Nova ${nova} supports ${range})` };
  return {
    state: 'warn',
    detail: `${version}, outside ${range}`,
    hint: `Nova ${nova} supports Kubernetes ${range}; Kubernetes ${formatMinor(parsed)} is untested: upgrade the cluster or continue at your own risk`,
  };
}

/** API group only GKE Autopilot clusters serve (its workload allowlists). */
export const AUTOPILOT_API_GROUP = 'auto.gke.io';
/** Node label GKE sets on Autopilot nodes. */
export const AUTOPILOT_NODE_LABEL = 'cloud.google.com/gke-autopilot';
/** Autopilot's node names start with this (Standard node pools use `gke-`). */
export const AUTOPILOT_NODE_PREFIX = 'gk3-';

/**
 * Whether the cluster is GKE Autopilot, where Nova cannot run. Signals: the `auto.gke.io` API
 * group (Autopilot's WorkloadAllowlist CRDs), nodes labelled `cloud.google.com/gke-autopilot`,
 * or nodes named `gk3-…`. (`cloud.google.com/gke-provisioning` is not a signal: GKE Standard
 * Spot nodes carry it too.)
 */
export function autopilotCheck(cluster: { apiGroups: readonly string[]; nodes: readonly NodeInfo[] }): Verdict {
  const signals: string[] = [];
  if (cluster.apiGroups.includes(AUTOPILOT_API_GROUP)) signals.push(`API group ${AUTOPILOT_API_GROUP}`);
  const labelled = cluster.nodes.filter((n) => AUTOPILOT_NODE_LABEL in n.labels);
  if (labelled.length > 0) signals.push(`${labelled.length} node(s) labelled ${AUTOPILOT_NODE_LABEL}`);
  const named = cluster.nodes.filter((n) => n.name.startsWith(AUTOPILOT_NODE_PREFIX));
  if (named.length > 0) signals.push(`${named.length} node(s) named ${AUTOPILOT_NODE_PREFIX}…`);
  if (signals.length === 0) return { state: 'ok', detail: 'no Autopilot API group or nodes' };
  return {
    state: 'fail',
    detail: `GKE Autopilot (${signals.join(', ')})`,
    hint: 'Nova cannot be deployed to a GKE Autopilot cluster: choose a GKE Standard (or any non-Autopilot) cluster as the hosting cluster',
  };
}

/** Whether a StorageClass is marked default (GA or beta annotation). */
export function isDefaultStorageClass(sc: StorageClassInfo): boolean {
  const a = sc.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

const STORAGE_HINT =
  `etcd runs as a StatefulSet and needs a PersistentVolume: configure a storage provisioner and mark its StorageClass default (annotation ${DEFAULT_CLASS_ANNOTATION}: "true")`;

/**
 * A default StorageClass must exist: etcd's volume claims name no class. Several defaults are a
 * warning (servers before 1.26 reject claims without a class when more than one is default).
 */
export function defaultStorageClassCheck(classes: readonly StorageClassInfo[]): Verdict {
  const defaults = classes.filter(isDefaultStorageClass).map((c) => c.name);
  if (defaults.length === 1) return { state: 'ok', detail: defaults[0]! };
  if (defaults.length > 1) {
    return {
      state: 'warn',
      detail: `${defaults.length} defaults: ${defaults.join(', ')}`,
      hint: `keep one StorageClass default (remove ${DEFAULT_CLASS_ANNOTATION} from the others): older servers refuse claims without a class when several are default`,
    };
  }
  const others = classes.map((c) => c.name);
  return {
    state: 'fail',
    detail: others.length ? `none of ${others.length} (${others.join(', ')}) is default` : 'no StorageClass',
    hint: STORAGE_HINT,
  };
}

/** providerID schemes of clouds whose cloud controller provisions LoadBalancer Services. */
const LB_CLOUDS: Record<string, string> = {
  gce: 'Google Cloud',
  aws: 'AWS',
  azure: 'Azure',
  digitalocean: 'DigitalOcean',
  linode: 'Linode',
  hcloud: 'Hetzner Cloud',
  oci: 'Oracle Cloud',
  ibm: 'IBM Cloud',
  scaleway: 'Scaleway',
  exoscale: 'Exoscale',
  vultr: 'Vultr',
  openstack: 'OpenStack',
};

/** The cloud a node runs in, from its providerID scheme, when that cloud provisions load balancers. */
export function loadBalancerCloud(nodes: readonly NodeInfo[]): string | undefined {
  for (const n of nodes) {
    const scheme = /^([a-z0-9-]+):\/\//.exec(n.providerID ?? '')?.[1];
    if (scheme && LB_CLOUDS[scheme]) return LB_CLOUDS[scheme];
  }
  return undefined;
}

/** API group of MetalLB: a load-balancer implementation for bare-metal clusters. */
export const METALLB_API_GROUP = 'metallb.io';

const INGRESS_HINT =
  'the API server is a LoadBalancer Service that must get an address reachable from the workload clusters and users; without a cloud load-balancer controller (or MetalLB or similar) or an ingress controller it stays Pending';

/**
 * An ingress controller or load-balancer capability. Evidence, strongest first: a
 * LoadBalancer Service that already got an address, a cloud provider that provisions load
 * balancers (nodes' providerID), MetalLB's API group, an IngressClass. None is a warning
 * with the install guide's hint.
 */
export function ingressCheck(cluster: {
  ingressClasses: readonly IngressClassInfo[];
  loadBalancer?: LoadBalancerEvidence;
  cloud?: string;
  apiGroups?: readonly string[];
}): Verdict {
  const found: string[] = [];
  if (cluster.loadBalancer) {
    const lb = cluster.loadBalancer;
    found.push(`LoadBalancer Service ${lb.namespace}/${lb.name} got ${lb.address}`);
  }
  if (cluster.cloud) found.push(`${cluster.cloud} load balancers`);
  if (cluster.apiGroups?.includes(METALLB_API_GROUP)) found.push('MetalLB');
  if (cluster.ingressClasses.length > 0) {
    const names = [...cluster.ingressClasses].sort((a, b) => Number(b.isDefault ?? false) - Number(a.isDefault ?? false)).map((c) => c.name);
    found.push(`IngressClass ${names.join(', ')}`);
  }
  if (found.length > 0) return { state: 'ok', detail: found.join('; ') };
  return { state: 'warn', detail: 'no IngressClass, no load-balancer evidence', hint: INGRESS_HINT };
}

/** `create statefulsets.apps in namespace elotl`: a permission as kubectl auth can-i names it. */
export function describePermission(p: Permission): string {
  const resource = `${p.resource}${p.group ? `.${p.group}` : ''}${p.subresource ? `/${p.subresource}` : ''}`;
  return `${p.verb} ${resource}${p.namespace ? ` in namespace ${p.namespace}` : ''}`;
}

/**
 * Every permission must be granted. Each missing one becomes a child line
 * `cannot create statefulsets.apps in namespace elotl`; reviews that failed make it a warning.
 */
export function permissionsCheck(results: readonly AccessResult[]): Verdict {
  const missing = results.filter((r) => !r.allowed && r.error === undefined);
  const unknown = results.filter((r) => r.error !== undefined);
  const children: CheckItem[] = [
    ...missing.map((r, i) => ({ id: `missing-${i}`, label: `cannot ${describePermission(r.permission)}`, state: 'info' as const })),
    ...unknown.map((r, i) => ({ id: `unknown-${i}`, label: `could not check ${describePermission(r.permission)}: ${r.error}`, state: 'info' as const })),
  ];
  if (missing.length > 0) {
    return {
      state: 'fail',
      detail: `${missing.length} of ${results.length} missing`,
      hint: 'ask a cluster admin to grant them, or use a context with more rights (kubectl auth can-i --list shows yours)',
      children,
    };
  }
  if (unknown.length > 0) {
    return {
      state: 'warn',
      detail: `${unknown.length} of ${results.length} could not be checked`,
      hint: 'check them by hand with kubectl auth can-i VERB RESOURCE -n NAMESPACE',
      children,
    };
  }
  return { state: 'ok', detail: results.length ? `all ${results.length} granted` : 'none needed' };
}

/** Whether HA pods (which tolerate no taints) can land on a node: not cordoned, no NoSchedule/NoExecute taint. */
export function isSchedulable(node: NodeInfo): boolean {
  if (node.unschedulable) return false;
  return !(node.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/** Well-known spreading keys, listed first when suggesting another key. */
const PREFERRED_KEYS = ['topology.kubernetes.io/zone', 'kubernetes.io/hostname', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone'];

/**
 * Node label keys with at least `min` distinct values among the schedulable nodes, the
 * well-known topology keys first, then by name.
 */
export function keysWithValues(nodes: readonly NodeInfo[], min: number = HA_REPLICAS): { key: string; values: number }[] {
  const values = new Map<string, Set<string>>();
  for (const n of nodes) {
    if (!isSchedulable(n)) continue;
    for (const [k, v] of Object.entries(n.labels)) {
      let set = values.get(k);
      if (!set) values.set(k, (set = new Set()));
      set.add(v);
    }
  }
  const rank = (k: string) => {
    const i = PREFERRED_KEYS.indexOf(k);
    return i === -1 ? PREFERRED_KEYS.length : i;
  };
  return [...values.entries()]
    .filter(([, set]) => set.size >= min)
    .map(([key, set]) => ({ key, values: set.size }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

/**
 * With HA, the 3 replicas of each component are spread over distinct values of the topology
 * key: the schedulable nodes must carry at least 3. Otherwise fail, offering non-HA
 * (`--no-ha`) or the keys that do have enough values.
 */
export function zoneCheck(nodes: readonly NodeInfo[], key: string, min: number = HA_REPLICAS): Verdict {
  const schedulable = nodes.filter(isSchedulable);
  const values = [...new Set(schedulable.map((n) => n.labels[key]).filter((v): v is string => v !== undefined))].sort();
  const nodesText = `${schedulable.length} schedulable node${schedulable.length === 1 ? '' : 's'}`;
  if (values.length >= min) {
    return { state: 'ok', detail: `${values.length} values on ${nodesText} (${listSome(values, 4)})` };
  }
  const alternatives = keysWithValues(nodes, min).filter((k) => k.key !== key);
  const offer = alternatives.length
    ? ` or another key with --topology-key: ${listSome(alternatives.map((k) => `${k.key} (${k.values})`), 4)}`
    : `; no node label has ${min} values among the ${nodesText}`;
  return {
    state: 'fail',
    detail: values.length ? `${values.length} value${values.length === 1 ? '' : 's'} on ${nodesText} (${values.join(', ')})` : `no ${key} label on ${nodesText}`,
    hint: `HA spreads ${min} replicas over distinct ${key} values: install without HA (--no-ha)${offer}`,
  };
}

/**
 * The workload clusters should run one Kubernetes minor version; differing minors are a
 * warning naming each cluster's version. Clusters whose version is unknown are left out.
 */
export function workloadVersionsCheck(versions: readonly { name: string; version?: string }[]): Verdict {
  const known = versions.flatMap((v) => {
    const parsed = v.version ? parseKubeVersion(v.version) : undefined;
    return parsed ? [{ name: v.name, minor: formatMinor(parsed) }] : [];
  });
  const unknown = versions.filter((v) => !known.some((k) => k.name === v.name)).map((v) => v.name);
  const minors = [...new Set(known.map((k) => k.minor))];
  const unknownText = unknown.length ? ` (not compared: ${unknown.join(', ')})` : '';
  if (minors.length <= 1) {
    return { state: 'ok', detail: `${minors.length ? `all v${minors[0]}` : 'no version known'}${unknownText}` };
  }
  return {
    state: 'warn',
    detail: known.map((k) => `${k.name} v${k.minor}`).join(', ') + unknownText,
    hint: 'the agents will run against different Kubernetes minor versions: upgrade the workload clusters to one version, or expect them to behave differently',
  };
}

/** Whether a checklist blocks the install (any failure) and whether it has warnings, children included. */
export function summarize(items: readonly CheckItem[]): { blocking: boolean; warnings: boolean } {
  const states = new Set<CheckState>();
  const walk = (list: readonly CheckItem[]) => {
    for (const i of list) {
      states.add(i.state);
      if (i.children) walk(i.children);
    }
  };
  walk(items);
  return { blocking: states.has('fail'), warnings: states.has('warn') };
}

/**
 * The permissions the default bundle needs (the objects the install creates): the hosting cluster
 * gets the namespace, the API server Service, the certificate Secrets, etcd and the control
 * plane's Deployments; each workload cluster gets the namespace, the init kubeconfig Secret,
 * the agent's Deployment, ServiceAccount and cluster-wide RBAC. Uninstall's deletes included.
 */
export function installPermissions(namespace: string): { hosting: Permission[]; workload: Permission[] } {
  const each = (group: string, resource: string, verbs: string[], ns?: string): Permission[] =>
    verbs.map((verb) => ({ group, resource, verb, ...(ns ? { namespace: ns } : {}) }));
  const write = ['get', 'create', 'update', 'patch', 'delete'];
  return {
    hosting: [
      ...each('', 'namespaces', ['get', 'create', 'delete']),
      ...each('', 'services', write, namespace),
      ...each('', 'secrets', write, namespace),
      ...each('apps', 'statefulsets', write, namespace),
      ...each('apps', 'deployments', write, namespace),
      ...each('', 'pods', ['get', 'list', 'watch'], namespace),
      ...each('', 'persistentvolumeclaims', ['get', 'list', 'delete'], namespace),
      ...each('', 'events', ['list', 'watch'], namespace),
    ],
    workload: [
      ...each('', 'namespaces', ['get', 'create', 'delete']),
      ...each('', 'secrets', write, namespace),
      ...each('', 'serviceaccounts', write, namespace),
      ...each('apps', 'deployments', write, namespace),
      ...each('', 'pods', ['get', 'list', 'watch'], namespace),
      ...each('rbac.authorization.k8s.io', 'clusterroles', write),
      ...each('rbac.authorization.k8s.io', 'clusterrolebindings', write),
    ],
  };
}

function listSome(values: readonly string[], max: number): string {
  if (values.length <= max) return values.join(', ');
  return `${values.slice(0, max).join(', ')} and ${values.length - max} more`;
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

// ---------------------------------------------------------------------------------------------
// Gathering from the clusters

/** Check ids: `<role>/<context>/<check>`, and `workloads/versions` for the comparison. */
export type CheckKey = 'reachable' | 'version' | 'autopilot' | 'storage-class' | 'ingress' | 'permissions' | 'topology';

/** The id of one check of one context. */
export function checkId(role: 'hosting' | 'workload', context: string, check: CheckKey): string {
  return `${role}/${context}/${check}`;
}

export const WORKLOAD_VERSIONS_ID = 'workloads/versions';

interface RawNode {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[]; providerID?: string };
}

interface RawService {
  metadata?: { name?: string; namespace?: string };
  spec?: { type?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

interface RawList<T> {
  items?: T[] | null;
}

/** The nodes as NodeInfo, page by page. */
async function listNodes(client: JsonClient): Promise<NodeInfo[]> {
  const res = await listJsonPaged<RawNode, NodeInfo>(client, '/api/v1/nodes', {}, (n) => ({
    name: n.metadata?.name ?? '',
    labels: n.metadata?.labels ?? {},
    ...(n.spec?.unschedulable ? { unschedulable: true } : {}),
    ...(n.spec?.taints?.length ? { taints: n.spec.taints.map((t) => ({ key: t.key, effect: t.effect, ...(t.value ? { value: t.value } : {}) })) } : {}),
    ...(n.spec?.providerID ? { providerID: n.spec.providerID } : {}),
  }));
  return res.items;
}

/** Names of the API groups the server offers. */
async function listApiGroups(client: JsonClient): Promise<string[]> {
  const res = await client.get<{ groups?: { name: string }[] }>('/apis');
  return (res.groups ?? []).map((g) => g.name);
}

async function listStorageClasses(client: JsonClient): Promise<StorageClassInfo[]> {
  const res = await client.get<RawList<{ metadata?: { name?: string; annotations?: Record<string, string> }; provisioner?: string }>>('/apis/storage.k8s.io/v1/storageclasses');
  return (res.items ?? []).map((c) => ({
    name: c.metadata?.name ?? '',
    ...(c.metadata?.annotations ? { annotations: c.metadata.annotations } : {}),
    ...(c.provisioner ? { provisioner: c.provisioner } : {}),
  }));
}

/** IngressClasses; none on servers older than 1.19 (no networking.k8s.io/v1 IngressClass). */
async function listIngressClasses(client: JsonClient): Promise<IngressClassInfo[]> {
  let res: RawList<{ metadata?: { name?: string; annotations?: Record<string, string> }; spec?: { controller?: string } }>;
  try {
    res = await client.get('/apis/networking.k8s.io/v1/ingressclasses');
  } catch (err) {
    if (statusCode(err) === 404) return [];
    throw err;
  }
  return (res.items ?? []).map((c) => ({
    name: c.metadata?.name ?? '',
    ...(c.spec?.controller ? { controller: c.spec.controller } : {}),
    ...(c.metadata?.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true' ? { isDefault: true } : {}),
  }));
}

/** A LoadBalancer Service anywhere that got an address; undefined when none or not allowed to look. */
async function findLoadBalancer(client: JsonClient): Promise<LoadBalancerEvidence | undefined> {
  try {
    const res = await listJsonPaged<RawService, LoadBalancerEvidence | undefined>(client, '/api/v1/services', {}, (s) => {
      if (s.spec?.type !== 'LoadBalancer') return undefined;
      const ing = s.status?.loadBalancer?.ingress?.find((i) => i.ip || i.hostname);
      if (!ing) return undefined;
      return { namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '', address: (ing.ip || ing.hostname)! };
    });
    return res.items.find((e) => e !== undefined);
  } catch {
    return undefined; // evidence only: the IngressClasses and the cloud still count
  }
}

/** Runs `fn` over `items` with at most `limit` in flight, results in input order. */
async function mapLimit<T, U>(items: readonly T[], limit: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One SelfSubjectAccessReview per permission (8 in flight). */
export async function reviewPermissions(kc: KubeConfig, permissions: readonly Permission[], timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<AccessResult[]> {
  const api = makeClient(kc, AuthorizationV1Api, timeoutMs);
  return mapLimit(permissions, 8, async (permission) => {
    try {
      const review = await api.createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: {
              group: permission.group,
              resource: permission.resource,
              verb: permission.verb,
              ...(permission.namespace ? { namespace: permission.namespace } : {}),
              ...(permission.subresource ? { subresource: permission.subresource } : {}),
            },
          },
        },
      });
      return { permission, allowed: review.status?.allowed === true };
    } catch (err) {
      return { permission, allowed: false, error: oneLine(describeError(err)) };
    }
  });
}

/** The checklist being filled in: items replaced (never mutated) and reported on every change. */
class Board {
  private items: CheckItem[];

  constructor(
    items: CheckItem[],
    private readonly onProgress?: (items: CheckItem[]) => void,
  ) {
    this.items = items;
    this.emit();
  }

  set(id: string, verdict: Verdict): void {
    this.items = this.items.map((item) => {
      if (item.id !== id) return item;
      const next: CheckItem = { id: item.id, label: item.label, state: verdict.state };
      if (verdict.detail !== undefined) next.detail = verdict.detail;
      if (verdict.hint !== undefined) next.hint = verdict.hint;
      if (verdict.children?.length) next.children = verdict.children;
      return next;
    });
    this.emit();
  }

  snapshot(): CheckItem[] {
    return [...this.items];
  }

  private emit(): void {
    this.onProgress?.(this.snapshot());
  }
}

interface Planned {
  key: CheckKey;
  label: string;
  /** Decides the check from the server version the reachability probe got; throws when the cluster could not answer. */
  run: (version: string) => Promise<Verdict>;
  /** How to check by hand when the cluster could not answer. */
  manual: string;
}

/**
 * Checks one context: reachability first, then every other check at once (a check whose
 * requests fail is a warning saying how to check by hand). Returns the server version, or
 * undefined when the context is not reachable (its other checks are then skipped).
 */
async function checkContext(
  board: Board,
  role: 'hosting' | 'workload',
  ctx: PrecheckContext,
  checks: Planned[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const id = (key: CheckKey) => checkId(role, ctx.name, key);
  board.set(id('reachable'), { state: 'running' });
  let version: string;
  try {
    signal?.throwIfAborted();
    version = await serverVersion(ctx.kc, timeoutMs);
    board.set(id('reachable'), reachableCheck(ctx.name, { version }));
  } catch (err) {
    board.set(id('reachable'), reachableCheck(ctx.name, { error: err }));
    for (const c of checks) board.set(id(c.key), { state: 'info', detail: 'skipped: not reachable' });
    return undefined;
  }
  for (const c of checks) board.set(id(c.key), { state: 'running' });
  await Promise.all(
    checks.map(async (c) => {
      try {
        signal?.throwIfAborted();
        board.set(id(c.key), await c.run(version));
      } catch (err) {
        board.set(id(c.key), { state: 'warn', detail: `could not check: ${oneLine(describeError(err))}`, hint: `check it by hand: ${c.manual}` });
      }
    }),
  );
  return version;
}

/** Memoizes a fetch so checks of one context share it. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

function hostingChecks(input: PrecheckInput, timeoutMs: number): Planned[] {
  const { name, kc } = input.hosting;
  const client = makeJsonClient(kc, timeoutMs);
  const nodes = once(() => listNodes(client));
  const groups = once(() => listApiGroups(client));
  const kubectl = `kubectl --context ${name}`;
  const checks: Planned[] = [
    { key: 'version', label: `${name}: Kubernetes version`, run: async (version) => versionCheck(version), manual: `${kubectl} version` },
    {
      key: 'autopilot',
      label: `${name}: not GKE Autopilot`,
      run: async () => autopilotCheck({ apiGroups: await groups(), nodes: await nodes() }),
      manual: `${kubectl} api-versions | grep ${AUTOPILOT_API_GROUP}`,
    },
    {
      key: 'storage-class',
      label: `${name}: default StorageClass`,
      run: async () => defaultStorageClassCheck(await listStorageClasses(client)),
      manual: `${kubectl} get storageclass`,
    },
    {
      key: 'ingress',
      label: `${name}: ingress or load balancer`,
      run: async () => {
        const [ingressClasses, loadBalancer, apiGroups, nodeList] = await Promise.all([
          listIngressClasses(client),
          findLoadBalancer(client),
          groups().catch(() => []),
          nodes().catch(() => []),
        ]);
        const cloud = loadBalancerCloud(nodeList);
        return ingressCheck({ ingressClasses, apiGroups, ...(loadBalancer ? { loadBalancer } : {}), ...(cloud ? { cloud } : {}) });
      },
      manual: `${kubectl} get ingressclass`,
    },
    {
      key: 'permissions',
      label: `${name}: permissions`,
      run: async () => permissionsCheck(await reviewPermissions(kc, input.permissions.hosting, timeoutMs)),
      manual: `${kubectl} auth can-i --list -n ${input.namespace}`,
    },
  ];
  if (input.ha) {
    checks.push({
      key: 'topology',
      label: `${name}: HA spread over ${input.topologyKey}`,
      run: async () => zoneCheck(await nodes(), input.topologyKey),
      manual: `${kubectl} get nodes -L ${input.topologyKey}`,
    });
  }
  return checks;
}

function workloadChecks(input: PrecheckInput, ctx: PrecheckContext, timeoutMs: number): Planned[] {
  return [
    {
      key: 'permissions',
      label: `${ctx.name}: permissions`,
      run: async () => permissionsCheck(await reviewPermissions(ctx.kc, input.permissions.workload, timeoutMs)),
      manual: `kubectl --context ${ctx.name} auth can-i --list -n ${input.namespace}`,
    },
  ];
}

/**
 * Runs every prerequisite check. Hosting: reachable, server version in the support matrix,
 * not GKE Autopilot, a default StorageClass, an ingress or load-balancer capability, the
 * install's permissions, and with HA enough distinct topology values among schedulable nodes.
 * Workloads: reachable, permissions, and (with two or more) one Kubernetes minor version.
 *
 * Contexts are checked concurrently; `onProgress` gets the whole list each time an item
 * changes (pending → running → ok/warn/fail; `info` "skipped" for checks of an unreachable
 * context). Every item that is not ok carries a one-line hint. Item ids are `checkId(...)`
 * and `WORKLOAD_VERSIONS_ID`.
 */
export async function runPrechecks(input: PrecheckInput, onProgress?: (items: CheckItem[]) => void): Promise<PrecheckResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const contexts = [
    { role: 'hosting' as const, ctx: input.hosting, checks: hostingChecks(input, timeoutMs) },
    ...input.workloads.map((w) => ({ role: 'workload' as const, ctx: w, checks: workloadChecks(input, w, timeoutMs) })),
  ];

  const initial: CheckItem[] = [];
  for (const { role, ctx, checks } of contexts) {
    initial.push({ id: checkId(role, ctx.name, 'reachable'), label: `${ctx.name}: reachable`, state: 'pending' });
    for (const c of checks) initial.push({ id: checkId(role, ctx.name, c.key), label: c.label, state: 'pending' });
  }
  const compareVersions = input.workloads.length >= 2;
  if (compareVersions) initial.push({ id: WORKLOAD_VERSIONS_ID, label: 'workload clusters: same Kubernetes version', state: 'pending' });

  const board = new Board(initial, onProgress);
  if (compareVersions) board.set(WORKLOAD_VERSIONS_ID, { state: 'running' });
  const versions = await Promise.all(contexts.map((c) => checkContext(board, c.role, c.ctx, c.checks, timeoutMs, input.signal)));

  if (compareVersions) {
    const workloadVersions = input.workloads.map((w, i) => {
      const version = versions[i + 1];
      return { name: w.name, ...(version ? { version } : {}) };
    });
    board.set(WORKLOAD_VERSIONS_ID, workloadVersionsCheck(workloadVersions));
  }
  input.signal?.throwIfAborted();
  const items = board.snapshot();
  return { items, ...summarize(items) };
}

/**
 * The prerequisite checks' decisions (pure): from facts gathered in a cluster to a verdict with
 * a one-line detail and, when not ok, a hint. Tested without a cluster.
 */
import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import { describeError } from '../../kube/transport/client.js';
import { isCredentialsError } from '../../kube/transport/credentials.js';
import { parseKubeVersion } from '../../kube/api/discovery.js';
import {
  NOVA_VERSION,
  SUPPORT_MATRIX,
  describeRange,
  formatMinor,
  isSupported,
  supportEntry,
  type SupportEntry,
} from '../support-matrix.js';
import type { IngressClassInfo, LoadBalancerEvidence, NodeInfo, StorageClassInfo, Verdict } from './types.js';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

/**
 * Reachability of a context from its `/version` answer or the error instead.
 * A failure is one line: the error, never a stack.
 */
export function reachableCheck(context: string, outcome: { version: string } | { error: unknown }): Verdict {
  if ('version' in outcome) return { state: 'ok', detail: outcome.version };
  if (isCredentialsError(outcome.error)) {
    const e = outcome.error;
    return {
      state: 'fail',
      detail: oneLine(`credentials: ${e.message}`),
      hint: e.hint ?? `fix user "${e.user}" of context ${context} in the kubeconfig; nothing was sent to its API server`,
    };
  }
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
    return {
      state: 'warn',
      detail: version,
      hint: `the support matrix has no row for Nova ${nova}; check the release notes for supported Kubernetes versions`,
    };
  }
  const range = describeRange(entry);
  const parsed = parseKubeVersion(version);
  if (!parsed) {
    return {
      state: 'warn',
      detail: `unknown version "${version}"`,
      hint: `Nova ${nova} supports Kubernetes ${range}; check the server version with kubectl version`,
    };
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

const STORAGE_HINT = `etcd runs as a StatefulSet and needs a PersistentVolume: configure a storage provisioner and mark its StorageClass default (annotation ${DEFAULT_CLASS_ANNOTATION}: "true")`;

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
  // The sandbox's nodes: its simulated cloud controller gives every LoadBalancer Service an address.
  sandbox: 'the sandbox’s simulated cloud',
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
    const names = [...cluster.ingressClasses]
      .sort((a, b) => Number(b.isDefault ?? false) - Number(a.isDefault ?? false))
      .map((c) => c.name);
    found.push(`IngressClass ${names.join(', ')}`);
  }
  if (found.length > 0) return { state: 'ok', detail: found.join('; ') };
  return { state: 'warn', detail: 'no IngressClass, no load-balancer evidence', hint: INGRESS_HINT };
}

/** `create statefulsets.apps in namespace elotl`: a permission as kubectl auth can-i names it. */
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

/** The first line of a text, trimmed. */
export function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

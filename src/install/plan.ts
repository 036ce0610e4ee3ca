import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { fleetFilesDir } from '../config/fleet-config.js';

/** A context the install works in, with its own KubeConfig (one per context). */
export interface Target {
  context: string;
  kc: KubeConfig;
}

export interface WorkloadTarget extends Target {
  /** The name the cluster registers under in the control plane (default: the context name). */
  clusterName: string;
}

/** Everything the install (and uninstall) needs to know, decided before anything changes. */
export interface InstallOptions {
  hosting: Target;
  workloads: WorkloadTarget[];
  namespace: string;
  /** 3 replicas of every component with pod anti-affinity on `topologyKey`. */
  ha: boolean;
  topologyKey: string;
  /** Certificate validity in days (default 3650, as the guide). */
  validityDays: number;
  /** The bundle directory (default: the one shipped with fleetdeck). */
  bundleDir?: string;
  /** Regenerate every certificate and key on purpose. */
  rotateCerts: boolean;
  dryRun: boolean;
  /** The control plane's context name in the kubeconfig written (default `nova`). */
  controlPlaneContext: string;
  /** Where the control plane's kubeconfig is written (mode 0600). */
  kubeconfigPath: string;
  /** Also merge that context into this kubeconfig file (a backup is made first). */
  mergeKubeconfig?: string;
  /** Where the fleet is recorded at the end. */
  fleetFile: string;
  /** The kubeconfig files the fleet's contexts were read from (the fleet file records them). */
  kubeconfigFiles?: string[];
}

/** The control plane's kubeconfig, next to the fleet file: `<config dir>/fleetdeck/<context>.kubeconfig`. */
export function controlPlaneKubeconfigPath(fleetFile: string, context: string): string {
  return path.join(fleetFilesDir(fleetFile), `${context}.kubeconfig`);
}

export const DEFAULT_TOPOLOGY_KEY = 'topology.kubernetes.io/zone';
export const DEFAULT_VALIDITY_DAYS = 3650;

/** Timeouts of the waits, as the guide's `kubectl wait` commands use them. */
export const TIMEOUTS = {
  loadBalancer: 360_000,
  etcd: 360_000,
  component: 180_000,
  endpoint: 360_000,
  crds: 120_000,
  agent: 300_000,
} as const;

/** The install's steps in order (the rows of the checklist). */
export function installSteps(opts: Pick<InstallOptions, 'workloads' | 'dryRun'>): { id: string; label: string }[] {
  return [
    { id: 'namespace', label: 'Namespace' },
    { id: 'service', label: 'API server LoadBalancer Service' },
    { id: 'certs', label: 'Certificates' },
    { id: 'control-plane', label: 'Control plane applied' },
    { id: 'components', label: 'Control plane components running' },
    { id: 'endpoint', label: 'Control plane answers through its load balancer' },
    { id: 'kubeconfig', label: 'Kubeconfig' },
    { id: 'crds', label: 'Nova CRDs installed' },
    { id: 'ready', label: 'Control plane ready' },
    ...opts.workloads.map((w) => ({ id: `agent:${w.context}`, label: `Cluster ${w.clusterName} connected (${w.context})` })),
    { id: 'fleet', label: 'Fleet recorded and verified' },
  ];
}

/** The control-plane components the install waits for, by the labels the guide's wait commands use. */
export const COMPONENTS = [
  { id: 'etcd', label: 'ETCD', selector: 'app=etcd', kind: 'StatefulSet', name: 'etcd' },
  { id: 'apiserver', label: 'API Server', selector: 'component=apiserver', kind: 'Deployment', name: 'apiserver' },
  {
    id: 'controller-manager',
    label: 'Kube-controller-manager',
    selector: 'component=controller-manager',
    kind: 'Deployment',
    name: 'controller-manager',
  },
  { id: 'scheduler', label: 'Nova scheduler', selector: 'component=nova-scheduler', kind: 'Deployment', name: 'nova-scheduler' },
] as const;

/** A wait gave up on an API server that stopped answering (ServerLost). */
export const lostHint = (context: string) =>
  `the API server of ${context} stopped answering: once it answers again (kubectl --context=${context} get --raw /readyz), run the same command again; it continues where it stopped`;

/** The guide's hints, word for word where it has them. */
export const HINTS = {
  loadBalancer:
    "the Service has no external address yet: check that the hosting cluster has a working load balancer (cloud controller, MetalLB) or Ingress controller, as the guide's prerequisites say",
  etcdPending:
    'ETCD pods will not start if the storage provisioner is not configured for the hosting cluster: etcd needs a PersistentVolume (check for a default StorageClass and its provisioner)',
  endpoint:
    "the control plane does not answer at its load-balancer address: check the apiserver pods' logs and that the Service routes to them",
  agent:
    "if the agent runs but the cluster does not show up in the control plane, read the agent's logs: kubectl --context=<workload> logs -n <namespace> deploy/nova-agent",
} as const;

/**
 * The sandbox's pods for a Prometheus without Kubernetes service discovery (Debian builds it
 * without): the sandbox lists and watches every cluster's pods with Prometheus's own kubeconfig
 * and serves them to its HTTP service discovery as Kubernetes service discovery would give them
 * (role `pod`): a target per container port (a container without ports: the pod IP alone), the
 * same `__meta_kubernetes_*` labels, nothing for a pod without an IP yet.
 */
import http from 'node:http';
import type net from 'node:net';
import { CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { makeClient } from '../kube/transport/client.js';
import { ResilientWatch } from '../kube/watch/watch.js';

/** A target group of Prometheus's HTTP service discovery. */
export interface TargetGroup {
  targets: string[];
  labels: Record<string, string>;
}

const META = '__meta_kubernetes_';

/** A Kubernetes label or annotation name as a Prometheus label name (Prometheus's SanitizeLabelName). */
export function sanitizeLabelName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, '_');
}

function podReady(pod: V1Pod): string {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return 'unknown';
  return ready.status === 'True' ? 'true' : 'false';
}

/** The labels every target of the pod has (Kubernetes service discovery's podLabels and the namespace). */
function podLabels(pod: V1Pod): Record<string, string> {
  const labels: Record<string, string> = {
    [`${META}namespace`]: pod.metadata?.namespace ?? '',
    [`${META}pod_name`]: pod.metadata?.name ?? '',
    [`${META}pod_ip`]: pod.status?.podIP ?? '',
    [`${META}pod_ready`]: podReady(pod),
    [`${META}pod_phase`]: pod.status?.phase ?? '',
    [`${META}pod_node_name`]: pod.spec?.nodeName ?? '',
    [`${META}pod_host_ip`]: pod.status?.hostIP ?? '',
    [`${META}pod_uid`]: pod.metadata?.uid ?? '',
  };
  const owner = pod.metadata?.ownerReferences?.find((o) => o.controller);
  if (owner) {
    labels[`${META}pod_controller_kind`] = owner.kind;
    labels[`${META}pod_controller_name`] = owner.name;
  }
  for (const [kind, values] of [
    ['label', pod.metadata?.labels],
    ['annotation', pod.metadata?.annotations],
  ] as const) {
    for (const [k, v] of Object.entries(values ?? {})) {
      labels[`${META}pod_${kind}_${sanitizeLabelName(k)}`] = v;
      labels[`${META}pod_${kind}present_${sanitizeLabelName(k)}`] = 'true';
    }
  }
  return labels;
}

/** The pod's targets, as Kubernetes service discovery's role `pod` has them (one group per target). */
export function podTargetGroups(pod: V1Pod): TargetGroup[] {
  const ip = pod.status?.podIP;
  if (!ip) return [];
  const common = podLabels(pod);
  const containers = [
    ...(pod.spec?.containers ?? []).map((c) => ({ c, init: false })),
    ...(pod.spec?.initContainers ?? []).map((c) => ({ c, init: true })),
  ];
  return containers.flatMap(({ c, init }) => {
    const own = {
      [`${META}pod_container_name`]: c.name,
      [`${META}pod_container_image`]: c.image ?? '',
      [`${META}pod_container_init`]: String(init),
    };
    if (!c.ports?.length) return [{ targets: [ip], labels: { ...common, ...own } }];
    return c.ports.map((p) => ({
      targets: [`${ip}:${p.containerPort}`],
      labels: {
        ...common,
        ...own,
        [`${META}pod_container_port_name`]: p.name ?? '',
        [`${META}pod_container_port_number`]: String(p.containerPort),
        [`${META}pod_container_port_protocol`]: p.protocol ?? 'TCP',
      },
    }));
  });
}

const keyOf = (p: V1Pod) => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;

/** One cluster's pods, as last listed and watched. */
class ClusterPods {
  readonly pods = new Map<string, V1Pod>();
  readonly watch: ResilientWatch<V1Pod>;

  constructor(kc: KubeConfig, log: (l: string) => void) {
    const core = makeClient(kc, CoreV1Api);
    let reported = 0;
    this.watch = new ResilientWatch<V1Pod>({
      kc,
      path: '/api/v1/pods',
      list: () => core.listPodForAllNamespaces(),
      onList: (items) => {
        this.pods.clear();
        for (const p of items) this.pods.set(keyOf(p), p);
      },
      onEvent: (type, p) => (type === 'DELETED' ? this.pods.delete(keyOf(p)) : this.pods.set(keyOf(p), p)),
      onError: (message, { attempt }) => {
        if (attempt === 1 || attempt - reported >= 5) {
          reported = attempt;
          log(`monitoring: watch pods: ${message} (retrying)`);
        }
      },
    });
  }
}

/** Serves each cluster's pods at `/pods/<context>` for Prometheus's HTTP service discovery, on 127.0.0.1. */
export class PodDiscovery {
  private readonly clusters = new Map<string, ClusterPods>();
  private server: http.Server | undefined;
  private base = '';

  constructor(clusters: readonly { context: string; kc: KubeConfig }[], log: (l: string) => void) {
    for (const c of clusters) this.clusters.set(c.context, new ClusterPods(c.kc, log));
  }

  /** The address Prometheus asks for a cluster's pods. */
  url(context: string): string {
    return `${this.base}/pods/${encodeURIComponent(context)}`;
  }

  /** Starts watching and serving; resolves with the server's address. */
  async start(): Promise<string> {
    for (const c of this.clusters.values()) c.watch.start();
    const server = http.createServer((req, res) => {
      const m = /^\/pods\/([^/?]+)$/.exec(req.url ?? '');
      const cluster = m ? this.clusters.get(decodeURIComponent(m[1]!)) : undefined;
      if (req.method !== 'GET' || !cluster) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      const groups = [...cluster.pods.values()].flatMap(podTargetGroups);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(groups));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    return this.base;
  }

  async stop(): Promise<void> {
    await Promise.allSettled([...this.clusters.values()].map((c) => c.watch.stop()));
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise((r) => server.close(r));
    server.closeAllConnections();
    await closed;
  }
}

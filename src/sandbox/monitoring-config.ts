/**
 * The sandbox's monitoring as configuration files: Prometheus discovering every sandbox cluster's
 * pods (through a kubeconfig of its own per cluster) and scraping those annotated for it, its alert
 * rules, and the Alertmanager it sends its alerts to. Pure: the supervisor writes what these return
 * (monitoring.ts). Intervals are a second: the sandbox is for tests, which wait for an alert.
 *
 * Pods are discovered by Prometheus's Kubernetes service discovery where the Prometheus has it;
 * Debian's is built without it, so there the sandbox discovers them itself with the same kubeconfig
 * and serves them to Prometheus's HTTP service discovery with the same `__meta_kubernetes_*` labels
 * (monitoring-discovery.ts): the relabeling is the same either way.
 */
import { stringify } from 'yaml';

/** The scrape job of the annotated pods (every cluster's; the `cluster` label tells them apart). */
export const SCRAPE_JOB = 'kubernetes-pods';
/** The alert that fires while a scraped pod does not answer. */
export const TARGET_DOWN = 'TargetDown';
/** Prometheus's user in every sandbox cluster, and the ClusterRole bound to it (pods: get, list, watch). */
export const PROMETHEUS_USER = 'sandbox-prometheus';
export const PROMETHEUS_ROLE = 'fleetdeck:sandbox-prometheus';
export const PROMETHEUS_RULES = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }];

/** How often Prometheus scrapes and evaluates its rules, and how long a scrape may take. */
export const INTERVAL = '1s';
export const SCRAPE_TIMEOUT = '1s';

/** One sandbox cluster as Prometheus discovers its pods. */
export interface ScrapedCluster {
  /** The cluster's context (`kind-workload-1`): the value of the targets' `cluster` label. */
  context: string;
  /** A kubeconfig of Prometheus's user for this cluster alone. */
  kubeconfig: string;
  /** Where the sandbox serves this cluster's pods to HTTP service discovery (discovery `http`). */
  discoveryUrl: string;
}

/** Who discovers the pods: Prometheus itself (`kubernetes_sd_configs`), or the sandbox for it (`http_sd_configs`). */
export type Discovery = 'kubernetes' | 'http';

export interface PrometheusConfigInput {
  clusters: readonly ScrapedCluster[];
  discovery: Discovery;
  rulesFile: string;
  /** The Alertmanager, `host:port`. */
  alertmanager: string;
  /**
   * The sandbox's pod network as seen from the machine: an HTTP proxy that reaches a pod IP
   * (`10.244.x.y`) at the loopback address where the pod's process listens (monitoring-proxy.ts).
   */
  podProxy: string;
}

/**
 * The usual annotation relabeling of pods (`prometheus.io/scrape: "true"`, `prometheus.io/port`,
 * `prometheus.io/path`, `prometheus.io/scheme`), Running pods only, the target the pod IP and the
 * annotated port, labelled with the cluster, namespace and pod; `job` is the same for every cluster.
 */
export function podRelabeling(context: string): Record<string, unknown>[] {
  return [
    { source_labels: ['__meta_kubernetes_pod_annotation_prometheus_io_scrape'], action: 'keep', regex: 'true' },
    { source_labels: ['__meta_kubernetes_pod_phase'], action: 'keep', regex: 'Running' },
    {
      source_labels: ['__meta_kubernetes_pod_annotation_prometheus_io_scheme'],
      action: 'replace',
      regex: '(https?)',
      target_label: '__scheme__',
    },
    {
      source_labels: ['__meta_kubernetes_pod_annotation_prometheus_io_path'],
      action: 'replace',
      regex: '(.+)',
      target_label: '__metrics_path__',
    },
    {
      source_labels: ['__meta_kubernetes_pod_ip', '__meta_kubernetes_pod_annotation_prometheus_io_port'],
      action: 'replace',
      regex: '(.+);(\\d+)',
      replacement: '$1:$2',
      target_label: '__address__',
    },
    { source_labels: ['__meta_kubernetes_namespace'], action: 'replace', target_label: 'namespace' },
    { source_labels: ['__meta_kubernetes_pod_name'], action: 'replace', target_label: 'pod' },
    { action: 'replace', target_label: 'cluster', replacement: context },
    { action: 'replace', target_label: 'job', replacement: SCRAPE_JOB },
  ];
}

/** The scrape job of one cluster (a job per cluster: its own kubeconfig, its own `cluster` label). */
function clusterJob(c: ScrapedCluster, discovery: Discovery, podProxy: string): Record<string, unknown> {
  return {
    job_name: `${SCRAPE_JOB}/${c.context}`,
    scrape_interval: INTERVAL,
    scrape_timeout: SCRAPE_TIMEOUT,
    proxy_url: podProxy,
    ...(discovery === 'kubernetes'
      ? { kubernetes_sd_configs: [{ role: 'pod', kubeconfig_file: c.kubeconfig }] }
      : { http_sd_configs: [{ url: c.discoveryUrl, refresh_interval: INTERVAL }] }),
    relabel_configs: podRelabeling(c.context),
  };
}

/** prometheus.yml: every cluster's pods, the rules file, the Alertmanager. */
export function prometheusConfig(input: PrometheusConfigInput): string {
  return stringify({
    global: { scrape_interval: INTERVAL, scrape_timeout: SCRAPE_TIMEOUT, evaluation_interval: INTERVAL },
    rule_files: [input.rulesFile],
    alerting: {
      alertmanagers: [{ api_version: 'v2', timeout: '5s', static_configs: [{ targets: [input.alertmanager] }] }],
    },
    scrape_configs: input.clusters.map((c) => clusterJob(c, input.discovery, input.podProxy)),
  });
}

/** The rules file: TargetDown, firing at once while a scraped pod does not answer. */
export function alertRules(): string {
  return stringify({
    groups: [
      {
        name: 'sandbox',
        interval: INTERVAL,
        rules: [
          {
            alert: TARGET_DOWN,
            expr: `up{job="${SCRAPE_JOB}"} == 0`,
            for: '0s',
            labels: { severity: 'warning' },
            annotations: {
              summary: '{{ $labels.namespace }}/{{ $labels.pod }} in {{ $labels.cluster }} does not answer on {{ $labels.instance }}',
            },
          },
        ],
      },
    ],
  });
}

/** alertmanager.yml: every alert to a receiver that sends nothing, grouped at once (the API lists alerts as they come). */
export function alertmanagerConfig(): string {
  return stringify({
    route: {
      receiver: 'null',
      group_by: ['alertname', 'cluster', 'namespace', 'pod'],
      group_wait: '0s',
      group_interval: '1s',
      repeat_interval: '1h',
    },
    receivers: [{ name: 'null' }],
  });
}

/** The kubeconfig of Prometheus's user for one cluster (PEM strings; the file is written 0600). */
export function prometheusKubeconfig(c: { context: string; server: string; caPem: string; certPem: string; keyPem: string }): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: c.context, cluster: { server: c.server, 'certificate-authority-data': b64(c.caPem) } }],
    users: [{ name: PROMETHEUS_USER, user: { 'client-certificate-data': b64(c.certPem), 'client-key-data': b64(c.keyPem) } }],
    contexts: [{ name: c.context, context: { cluster: c.context, user: PROMETHEUS_USER } }],
    'current-context': c.context,
  });
}

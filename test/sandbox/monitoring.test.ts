import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  alertmanagerConfig,
  alertRules,
  type Discovery,
  PROMETHEUS_USER,
  prometheusConfig,
  prometheusKubeconfig,
  SCRAPE_JOB,
} from '../../src/sandbox/monitoring-config.js';
import { podTargetGroups, sanitizeLabelName } from '../../src/sandbox/monitoring-discovery.js';

interface Rule {
  source_labels?: string[];
  action: 'keep' | 'replace';
  regex?: string;
  replacement?: string;
  target_label?: string;
}
interface Job {
  job_name: string;
  scrape_interval: string;
  scrape_timeout: string;
  proxy_url: string;
  kubernetes_sd_configs?: { role: string; kubeconfig_file: string }[];
  http_sd_configs?: { url: string; refresh_interval: string }[];
  relabel_configs: Rule[];
}
interface Config {
  global: Record<string, string>;
  rule_files: string[];
  alerting: { alertmanagers: { api_version: string; static_configs: { targets: string[] }[] }[] };
  scrape_configs: Job[];
}

const CLUSTERS = [
  { context: 'kind-cp', kubeconfig: '/s/monitoring/kubeconfig.kind-cp', discoveryUrl: 'http://127.0.0.1:7000/pods/kind-cp' },
  {
    context: 'kind-workload-1',
    kubeconfig: '/s/monitoring/kubeconfig.kind-workload-1',
    discoveryUrl: 'http://127.0.0.1:7000/pods/kind-workload-1',
  },
];

function config(discovery: Discovery): Config {
  const text = prometheusConfig({
    clusters: CLUSTERS,
    discovery,
    rulesFile: '/s/monitoring/rules.yml',
    alertmanager: '127.0.0.1:9093',
    podProxy: 'http://127.0.0.1:7001',
  });
  return parse(text) as Config;
}

/**
 * Prometheus's relabeling, as far as the config uses it: source labels joined by `;`, the regex
 * anchored at both ends (default `(.*)`), `keep` dropping a target that does not match,
 * `replace` writing the replacement (default `$1`) when it matches; labels starting `__` dropped after.
 */
function relabel(labels: Record<string, string>, rules: readonly Rule[]): Record<string, string> | undefined {
  const out = { ...labels };
  for (const r of rules) {
    const value = (r.source_labels ?? []).map((l) => out[l] ?? '').join(';');
    const m = new RegExp(`^(?:${r.regex ?? '(.*)'})$`).exec(value);
    if (r.action === 'keep' && !m) return undefined;
    if (r.action === 'replace' && m && r.target_label) {
      out[r.target_label] = (r.replacement ?? '$1').replace(/\$(\d)/g, (_, i: string) => m[Number(i)] ?? '');
    }
  }
  return Object.fromEntries(Object.entries(out).filter(([k]) => !k.startsWith('__') || k === '__address__' || k === '__metrics_path__'));
}

function pod(annotations: Record<string, string>, over: { phase?: string; podIP?: string; ports?: number[] } = {}): V1Pod {
  return {
    metadata: { name: 'web-1', namespace: 'team-a', uid: 'u1', annotations, labels: { 'app.kubernetes.io/name': 'web' } },
    spec: {
      nodeName: 'workload-1-node-2',
      containers: [{ name: 'web', image: 'nginx', ports: (over.ports ?? [80]).map((containerPort) => ({ containerPort })) }],
    },
    status: {
      phase: over.phase ?? 'Running',
      podIP: over.podIP ?? '10.245.0.7',
      hostIP: '127.1.1.2',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** Every target of the pod after the cluster's job's relabeling, as Prometheus would scrape it. */
function targets(p: V1Pod, job: Job): Record<string, string>[] {
  return podTargetGroups(p).flatMap((g) =>
    g.targets.flatMap((address) => {
      const t = relabel({ __address__: address, __metrics_path__: '/metrics', job: job.job_name, ...g.labels }, job.relabel_configs);
      return t ? [t] : [];
    }),
  );
}

describe('the Prometheus configuration', () => {
  it('scrapes and evaluates every second, with the rules file and the Alertmanager', () => {
    const c = config('http');
    expect(c.global).toEqual({ scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' });
    expect(c.rule_files).toEqual(['/s/monitoring/rules.yml']);
    expect(c.alerting.alertmanagers).toEqual([
      expect.objectContaining({ api_version: 'v2', static_configs: [{ targets: ['127.0.0.1:9093'] }] }),
    ]);
  });

  it('has a job per cluster, scraping through the pod proxy, discovering pods with Kubernetes service discovery', () => {
    const jobs = config('kubernetes').scrape_configs;
    expect(jobs.map((j) => j.job_name)).toEqual([`${SCRAPE_JOB}/kind-cp`, `${SCRAPE_JOB}/kind-workload-1`]);
    expect(jobs.map((j) => j.kubernetes_sd_configs)).toEqual(CLUSTERS.map((c) => [{ role: 'pod', kubeconfig_file: c.kubeconfig }]));
    for (const j of jobs)
      expect([j.scrape_interval, j.scrape_timeout, j.proxy_url, j.http_sd_configs]).toEqual([
        '1s',
        '1s',
        'http://127.0.0.1:7001',
        undefined,
      ]);
  });

  it('or, for a Prometheus without it, with HTTP service discovery of the same pods', () => {
    const jobs = config('http').scrape_configs;
    expect(jobs.map((j) => j.http_sd_configs)).toEqual(CLUSTERS.map((c) => [{ url: c.discoveryUrl, refresh_interval: '1s' }]));
    expect(jobs.map((j) => j.kubernetes_sd_configs)).toEqual([undefined, undefined]);
    expect(jobs[0]!.relabel_configs).toEqual(config('kubernetes').scrape_configs[0]!.relabel_configs);
  });

  it('keeps Running pods annotated prometheus.io/scrape, at the pod IP and the annotated port, labelled with cluster, namespace and pod', () => {
    const job = config('http').scrape_configs[1]!;
    const scrape = { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9113' };
    expect(targets(pod(scrape), job)).toEqual([
      {
        __address__: '10.245.0.7:9113',
        __metrics_path__: '/metrics',
        job: SCRAPE_JOB,
        cluster: 'kind-workload-1',
        namespace: 'team-a',
        pod: 'web-1',
      },
    ]);
    // prometheus.io/path; without prometheus.io/port the container's port.
    expect(targets(pod({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/stats' }), job)).toEqual([
      expect.objectContaining({ __address__: '10.245.0.7:80', __metrics_path__: '/stats' }),
    ]);
    expect(targets(pod({}), job)).toEqual([]);
    expect(targets(pod({ 'prometheus.io/scrape': 'false', 'prometheus.io/port': '9113' }), job)).toEqual([]);
    expect(targets(pod(scrape, { phase: 'Pending' }), job)).toEqual([]);
    expect(targets(pod(scrape, { phase: 'Succeeded' }), job)).toEqual([]);
  });
});

describe('the pods as Kubernetes service discovery gives them (role pod)', () => {
  it('a target per container port, with the pod, container and annotation labels', () => {
    const groups = podTargetGroups(pod({ 'prometheus.io/scrape': 'true' }, { ports: [80, 8080] }));
    expect(groups.map((g) => g.targets)).toEqual([['10.245.0.7:80'], ['10.245.0.7:8080']]);
    expect(groups[1]!.labels).toMatchObject({
      __meta_kubernetes_namespace: 'team-a',
      __meta_kubernetes_pod_name: 'web-1',
      __meta_kubernetes_pod_ip: '10.245.0.7',
      __meta_kubernetes_pod_phase: 'Running',
      __meta_kubernetes_pod_ready: 'true',
      __meta_kubernetes_pod_node_name: 'workload-1-node-2',
      __meta_kubernetes_pod_annotation_prometheus_io_scrape: 'true',
      __meta_kubernetes_pod_annotationpresent_prometheus_io_scrape: 'true',
      __meta_kubernetes_pod_label_app_kubernetes_io_name: 'web',
      __meta_kubernetes_pod_container_name: 'web',
      __meta_kubernetes_pod_container_port_number: '8080',
      __meta_kubernetes_pod_container_init: 'false',
    });
  });

  it('the pod IP alone for a container without ports, nothing for a pod without an IP', () => {
    expect(podTargetGroups(pod({}, { ports: [] })).map((g) => g.targets)).toEqual([['10.245.0.7']]);
    expect(podTargetGroups(pod({}, { podIP: '' }))).toEqual([]);
    expect(sanitizeLabelName('prometheus.io/scrape')).toBe('prometheus_io_scrape');
  });
});

describe('the alert rules', () => {
  it('TargetDown fires at once while a scraped pod does not answer, evaluated every second', () => {
    const { groups } = parse(alertRules()) as { groups: { interval: string; rules: Record<string, unknown>[] }[] };
    expect(groups).toHaveLength(1);
    expect(groups[0]!.interval).toBe('1s');
    expect(groups[0]!.rules).toEqual([
      expect.objectContaining({ alert: 'TargetDown', expr: 'up{job="kubernetes-pods"} == 0', for: '0s', labels: { severity: 'warning' } }),
    ]);
  });
});

describe('the Alertmanager configuration', () => {
  it('sends every alert to a receiver that sends nothing, grouped at once', () => {
    const c = parse(alertmanagerConfig()) as { route: Record<string, unknown>; receivers: unknown[] };
    expect(c.route).toMatchObject({ receiver: 'null', group_wait: '0s', group_interval: '1s' });
    expect(c.receivers).toEqual([{ name: 'null' }]);
  });
});

describe("Prometheus's kubeconfig", () => {
  it('one cluster, its CA and the client certificate of its own user', () => {
    const kc = parse(
      prometheusKubeconfig({ context: 'kind-cp', server: 'https://127.0.0.1:6443', caPem: 'CA', certPem: 'CERT', keyPem: 'KEY' }),
    ) as Record<string, { name: string; cluster?: Record<string, string>; user?: Record<string, string> }[]>;
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    expect(kc.clusters).toEqual([
      { name: 'kind-cp', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': b64('CA') } },
    ]);
    expect(kc.users).toEqual([{ name: PROMETHEUS_USER, user: { 'client-certificate-data': b64('CERT'), 'client-key-data': b64('KEY') } }]);
  });
});

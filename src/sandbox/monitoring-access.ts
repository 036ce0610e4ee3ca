/**
 * What the sandbox's monitoring needs before it starts: the Prometheus and Alertmanager programs,
 * and Prometheus's access to every cluster — its own user (`sandbox-prometheus`, a client
 * certificate of the cluster's CA) allowed to get, list and watch pods, in a kubeconfig per cluster.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { authorityFromPem, issueCertificate, type KeyMaterial } from '../kube/certs/pki.js';
import { findExecutable } from '../kube/transport/credentials.js';
import { makeClient, statusCode } from '../kube/transport/client.js';
import { PROMETHEUS_ROLE, PROMETHEUS_RULES, PROMETHEUS_USER, prometheusKubeconfig } from './monitoring-config.js';

export interface MonitoringBinaries {
  prometheus: string;
  alertmanager: string;
  /** Beside Prometheus (or on PATH): tells whether this Prometheus has Kubernetes service discovery. */
  promtool?: string;
}

/** The packages that have them, for the message when they are missing. */
const HOW = 'install them (on Debian: apt-get install prometheus prometheus-alertmanager)';

/**
 * The programs: FLEETDECK_PROMETHEUS and FLEETDECK_ALERTMANAGER when set, else `prometheus` and
 * `prometheus-alertmanager` (Debian's name) or `alertmanager` on PATH. Throws naming what is missing.
 */
export function monitoringBinaries(env: NodeJS.ProcessEnv = process.env): MonitoringBinaries {
  const prometheus = findExecutable(env.FLEETDECK_PROMETHEUS || 'prometheus', env);
  const alertmanager = env.FLEETDECK_ALERTMANAGER
    ? findExecutable(env.FLEETDECK_ALERTMANAGER, env)
    : (findExecutable('prometheus-alertmanager', env) ?? findExecutable('alertmanager', env));
  const missing = [...(prometheus ? [] : ['prometheus']), ...(alertmanager ? [] : ['alertmanager'])];
  if (!prometheus || !alertmanager) throw new UserError(`monitoring needs ${missing.join(' and ')}, not found; ${HOW}`);
  const beside = path.join(path.dirname(prometheus), 'promtool');
  const promtool = findExecutable(beside, env) ?? findExecutable('promtool', env);
  return { prometheus, alertmanager, ...(promtool ? { promtool } : {}) };
}

/** Whether this Prometheus takes the configuration file (its promtool's syntax check; without promtool: unknown, so no). */
export function prometheusAccepts(bin: MonitoringBinaries, configFile: string): boolean {
  if (!bin.promtool) return false;
  const r = spawnSync(bin.promtool, ['check', 'config', '--syntax-only', configFile], { stdio: 'ignore', timeout: 30_000 });
  return r.status === 0;
}

const CERT_DAYS = 365;

/** Prometheus's client certificate for a cluster, issued by its CA once and kept beside its other certificates. */
export async function prometheusCertificate(clusterDir: string): Promise<KeyMaterial> {
  const file = (n: string) => path.join(clusterDir, 'pki', n);
  if (fs.existsSync(file('prometheus.key')) && fs.existsSync(file('prometheus.crt'))) {
    return { certPem: fs.readFileSync(file('prometheus.crt'), 'utf8'), keyPem: fs.readFileSync(file('prometheus.key'), 'utf8') };
  }
  const ca = authorityFromPem(fs.readFileSync(file('ca.crt'), 'utf8'), fs.readFileSync(file('ca.key'), 'utf8'));
  const issued = await issueCertificate(ca, { commonName: PROMETHEUS_USER, usage: 'client', days: CERT_DAYS });
  fs.writeFileSync(file('prometheus.crt'), issued.certPem);
  fs.writeFileSync(file('prometheus.key'), issued.keyPem, { mode: 0o600 });
  return issued;
}

/** Prometheus's user may get, list and watch pods in every namespace. Idempotent. */
export async function ensurePrometheusRole(kc: KubeConfig): Promise<void> {
  const rbac = makeClient(kc, RbacAuthorizationV1Api);
  const ignoreExists = (err: unknown) => {
    if (statusCode(err) !== 409) throw err;
  };
  await rbac.createClusterRole({ body: { metadata: { name: PROMETHEUS_ROLE }, rules: PROMETHEUS_RULES } }).catch(ignoreExists);
  await rbac
    .createClusterRoleBinding({
      body: {
        metadata: { name: PROMETHEUS_ROLE },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: PROMETHEUS_ROLE },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: PROMETHEUS_USER }],
      },
    })
    .catch(ignoreExists);
}

/** A cluster as the monitoring reaches it. */
export interface AccessedCluster {
  spec: { context: string; dir: string };
  access: { server: string; caPem: string };
  /** The sandbox's own access (it grants Prometheus's). */
  kc: KubeConfig;
}

/**
 * Prometheus's access to one cluster: its certificate, its role, its kubeconfig written to
 * `<dir>/kubeconfig.<context>` (0600). Returns the file.
 */
export async function writePrometheusAccess(c: AccessedCluster, dir: string): Promise<string> {
  const cert = await prometheusCertificate(c.spec.dir);
  await ensurePrometheusRole(c.kc);
  const file = path.join(dir, `kubeconfig.${c.spec.context}`);
  const yaml = prometheusKubeconfig({ context: c.spec.context, server: c.access.server, caPem: c.access.caPem, ...cert });
  fs.writeFileSync(file, yaml, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/**
 * A control plane installed on the sandbox for the certificate renewal tests (HA, one workload
 * cluster, a namespace of its own) and what they read from it: the certificate Secrets, the
 * renewal record, the install's kubeconfig, the API through the load balancer.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { expect } from 'vitest';
import { CERT_SECRET_NAMES } from '../../../src/install/certs/specs.js';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { apiAnswers, presentedCert } from '../../../src/kube/certs/serving-cert.js';
import { eventually, runCli } from '../cli/cli.js';
import { sandbox } from './fleet.js';

export const serial = (pem: string) => new X509Certificate(pem).serialNumber.toUpperCase();

/**
 * Polls GET /version through the load balancer until stopped; each poll's result in order. Given
 * a function, each poll uses the KubeConfig it returns (a client that re-reads its kubeconfig file).
 */
function watcher(kc: KubeConfig | (() => KubeConfig)) {
  const polls: boolean[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      polls.push((await apiAnswers(typeof kc === 'function' ? kc() : kc, 2_000)) === true);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    polls,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/**
 * Runs `run` while a watcher polls the API through the load balancer, and asserts what it saw in
 * order, without a clock (not how many polls failed in a row: polls are 200 ms samples, so that
 * would bound the outage's length): the API answers before the run, a poll made while the run was
 * under way answered, and a poll begun after the run ended answers.
 */
export async function answeringThrough<T>(kc: KubeConfig | (() => KubeConfig), run: () => Promise<T>): Promise<T> {
  const current = () => (typeof kc === 'function' ? kc() : kc);
  expect(await apiAnswers(current()), 'the API answers before the run').toBe(true);
  const w = watcher(kc);
  try {
    const result = await run();
    // polls[ended] may have begun before the run ended; every later poll began after it.
    const ended = w.polls.length;
    await eventually('a poll begun after the run answers', () => w.polls.slice(ended + 1).some(Boolean), 120_000);
    expect(w.polls.slice(0, ended + 1).some(Boolean), 'a poll made while the run was under way answered').toBe(true);
    return result;
  } finally {
    await w.stop();
  }
}

/** A fleet in a new namespace `<prefix>-xxxxx`; `install()` in beforeAll, `uninstall()` in afterAll. */
export function renewFleet(prefix: string) {
  const kubeconfig = sandbox().kubeconfig;
  const namespace = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fd-${prefix}-`));
  const env = { FLEETDECK_FLEET_FILE: path.join(dir, 'fleet.yaml') };
  const written = path.join(dir, 'nova.kubeconfig');
  const cli = (args: string[], timeoutMs = 600_000) => runCli([...args, '--kubeconfig', kubeconfig], { env, timeoutMs });
  const hosting = () => makeClient(configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-cp'), CoreV1Api);
  const cpKc = (): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: written }).config, 'nova');

  async function secretText(name: string, key: string): Promise<string> {
    const s = await hosting().readNamespacedSecret({ name, namespace });
    return Buffer.from(s.data?.[key] ?? '', 'base64').toString('utf8');
  }

  /** The record ConfigMap's entry `key` (`renewal` or `rotation`), parsed. */
  async function record(key = 'renewal'): Promise<{ phase: string } | undefined> {
    const cm = await hosting()
      .readNamespacedConfigMap({ name: 'fleetdeck-cert-renewal', namespace })
      .catch(() => undefined);
    return cm?.data?.[key] ? (JSON.parse(cm.data[key]) as { phase: string }) : undefined;
  }

  async function versions(): Promise<Record<string, string | undefined>> {
    const out: Record<string, string | undefined> = {};
    for (const n of CERT_SECRET_NAMES) out[n] = (await hosting().readNamespacedSecret({ name: n, namespace })).metadata?.resourceVersion;
    return out;
  }

  /** Several new TLS connections through the load balancer all present the serving certificate of the Secret. */
  async function servingMatchesSecret(): Promise<void> {
    const want = serial(await secretText('nova-apiserver-certs', 'apiserver.crt'));
    for (let i = 0; i < 6; i++) expect((await presentedCert(cpKc())).serial).toBe(want);
  }

  /** The workload's Cluster is Ready with a heartbeat not older than `since`. */
  async function agentFresh(since: number): Promise<void> {
    const cluster = (await makeClient(cpKc(), CustomObjectsApi).getClusterCustomObject({
      group: 'cluster.elotl.co',
      version: 'v1alpha1',
      plural: 'clusters',
      name: 'kind-workload-1',
    })) as { status?: { lastUpdateTime?: string; conditions?: { type: string; status: string }[] } };
    expect(cluster.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(Date.parse(cluster.status?.lastUpdateTime ?? '')).toBeGreaterThanOrEqual(Math.floor(since / 1000) * 1000);
  }

  async function install(): Promise<void> {
    const r = await cli(
      ['install', '--hosting-context', 'kind-cp', '--namespace', namespace, '--workload', 'kind-workload-1', '--yes'],
      900_000,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }

  async function uninstall(): Promise<void> {
    await cli(['uninstall', '--hosting-context', 'kind-cp', '--namespace', namespace, '--yes', '--no-backup'], 600_000);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  return {
    kubeconfig,
    namespace,
    env,
    written,
    cli,
    hosting,
    cpKc,
    secretText,
    record,
    versions,
    servingMatchesSecret,
    agentFresh,
    install,
    uninstall,
  };
}

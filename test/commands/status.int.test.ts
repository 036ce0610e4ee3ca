import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate } from '../../src/kube/certs/pki.js';
import type { StatusJson } from '../../src/report/status.js';
import { FAULT_ANNOTATION } from '../../src/sandbox/sim/index.js';
import { CLI, eventually, runCli } from '../helpers/cli/cli.js';
import {
  createNovaCluster,
  createSchedulePolicy,
  deleteNovaCrds,
  ignore,
  installNovaCrds,
  pauseDeployment,
} from '../helpers/sandbox/nova.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const sandboxDir = sandbox().dir;
const NS = 'nova-status';
const ctx = (name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, name);

// The sandbox's hosting cluster plays the control plane's API too (it serves the Nova CRDs).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-'));
const fleetFile = path.join(dir, 'fleet.yaml');
fs.writeFileSync(
  fleetFile,
  stringify({
    hostingContext: 'kind-cp',
    controlPlaneContext: 'kind-cp',
    namespace: NS,
    workloads: [{ context: 'kind-workload-1', clusterName: 'e2e-w1' }, 'kind-workload-2'],
  }),
);
const env = { FLEETDECK_FLEET_FILE: fleetFile };

function lineOf(text: string, start: string): string {
  const line = text.split('\n').find((l) => l.startsWith(start));
  if (!line) throw new Error(`no line starting with "${start}" in:\n${text}`);
  return line;
}

describe('fleet status on a sandbox fleet', () => {
  beforeAll(async () => {
    const host = ctx('kind-cp');
    const core = makeClient(host, CoreV1Api);
    const apps = makeClient(host, AppsV1Api);
    await createNamespace(core, NS);
    // Control-plane pods in various states, found by the labels the Nova guide waits on.
    await pauseDeployment(host, NS, 'apiserver', { component: 'apiserver' }, { replicas: 2 });
    await pauseDeployment(
      host,
      NS,
      'kube-controller-manager',
      { component: 'controller-manager' },
      { annotations: { [FAULT_ANNOTATION]: 'CrashLoopBackOff' } },
    );
    await pauseDeployment(host, NS, 'nova-scheduler', { component: 'nova-scheduler' });
    // etcd whose volume claims name a StorageClass nobody provisions: Pending, as in the guide's troubleshooting.
    await apps.createNamespacedStatefulSet({
      namespace: NS,
      body: {
        metadata: { name: 'etcd' },
        spec: {
          serviceName: 'etcd',
          replicas: 1,
          selector: { matchLabels: { app: 'etcd' } },
          template: { metadata: { labels: { app: 'etcd' } }, spec: { containers: [{ name: 'etcd', image: 'registry.k8s.io/pause:3.9' }] } },
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { storageClassName: 'no-provisioner', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    await core.createNamespacedService({
      namespace: NS,
      body: {
        metadata: { name: 'apiserver' },
        spec: { type: 'LoadBalancer', selector: { component: 'apiserver' }, ports: [{ port: 443 }] },
      },
    });
    // Certificates: one good for years, one about to expire.
    const ca = await createAuthority('nova-ca', 3650);
    const soon = await issueCertificate(ca, { commonName: 'etcd-peer', usage: 'server+client', days: 10 });
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    await core.createNamespacedSecret({ namespace: NS, body: { metadata: { name: 'nova-ca' }, data: { 'ca.crt': b64(ca.certPem) } } });
    await core.createNamespacedSecret({
      namespace: NS,
      body: { metadata: { name: 'etcd-certs' }, data: { 'peer.crt': b64(soon.certPem), 'peer.key': b64(soon.keyPem) } },
    });
    // The control plane's API: CRDs and one registered, ready cluster; no SchedulePolicy yet.
    await installNovaCrds(host);
    await createNovaCluster(
      host,
      'e2e-w1',
      { kubernetesversion: '1.20', kubernetescluster: 'workload-1', region: 'sandbox', zone: 'zone-a' },
      { Ready: 'True', Idle: 'False', Standby: 'False' },
    );
    // An agent in kind-workload-1 only.
    const w1 = ctx('kind-workload-1');
    await createNamespace(makeClient(w1, CoreV1Api), NS);
    await pauseDeployment(w1, NS, 'nova-agent', { app: 'nova-agent' });
    await eventually('agent running', async () => {
      const d = await makeClient(w1, AppsV1Api).readNamespacedDeployment({ name: 'nova-agent', namespace: NS });
      return d.status?.readyReplicas === 1;
    });
    await eventually(
      'apiserver and crash-looping pods reported',
      async () => {
        const pods = (await core.listNamespacedPod({ namespace: NS })).items;
        return (
          pods.filter((p) => p.metadata?.labels?.component === 'apiserver' && p.status?.phase === 'Running').length === 2 &&
          pods.some((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff')
        );
      },
      60_000,
    );
  });

  afterAll(async () => {
    const host = ctx('kind-cp');
    await makeClient(host, CoreV1Api).deleteNamespace({ name: NS }).catch(ignore(404));
    await makeClient(ctx('kind-workload-1'), CoreV1Api).deleteNamespace({ name: NS }).catch(ignore(404));
    await deleteNovaCrds(host);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prints the Nova status checklist with the right marks and hints, exit 1 while broken', async () => {
    const res = await runCli(['status', '--kubeconfig', kubeconfig], { env });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(1);
    const out = res.stdout;
    expect(out.split('\n')[0]).toBe('Checking status of Nova Control Plane Components');
    expect(lineOf(out, '* API Server status...')).toBe('* API Server status... Running √');
    expect(lineOf(out, '* Kube-controller-manager status...')).toMatch(/CrashLoopBackOff.* ✗$/);
    expect(lineOf(out, '* ETCD status...')).toMatch(/^\* ETCD status\.\.\. Pending .* ✗$/);
    expect(out).toMatch(/ETCD pods will not start if the storage provisioner is not configured/);
    expect(lineOf(out, '* Nova scheduler status...')).toBe('* Nova scheduler status... Running √');
    expect(out).toContain('Nova Control Plane is not healthy ✗');
    expect(lineOf(out, '* API Server Service...')).toMatch(/^\* API Server Service\.\.\. 127\.3\.\d+\.\d+ √$/);
    expect(lineOf(out, '* Control plane certificates...')).toMatch(/etcd-certs\/peer\.crt .*expires in (9|10) days.* ‼$/);
    expect(out).toContain('* Cluster CRD presence... installed √');
    expect(out).toContain('* Cluster e2e-w1 connected and ready √');
    expect(out).toContain('* 0 SchedulePolicies defined ‼');
    expect(out).toContain('please create at least one SchedulePolicy, otherwise Nova does not know where to run your workloads.');
    expect(out).toContain('* ScheduleGroup CRD presence... installed √');
    expect(out).toContain('All Nova Custom Resource Definitions installed √');
    expect(lineOf(out, '* Agent in kind-workload-1')).toBe('* Agent in kind-workload-1 (cluster e2e-w1)... 1/1 ready, registered, Ready √');
    expect(lineOf(out, '* Agent in kind-workload-2...')).toMatch(new RegExp(`no agent \\(namespace ${NS} not found\\), not registered ✗$`));
    expect(lineOf(out, '* Kubernetes versions...')).toBe('* Kubernetes versions... consistent (v1.20) √');
    // The seed's Cluster table.
    expect(out).toMatch(/NAME\s+K8S-VERSION\s+K8S-CLUSTER\s+REGION\s+ZONE\s+READY\s+IDLE\s+STANDBY/);
    expect(out).toMatch(/e2e-w1\s+1\.20\s+workload-1\s+sandbox\s+zone-a\s+True\s+False\s+False/);
  });

  it('JSON carries the same checklist, the fleet and the clusters; live changes show up', async () => {
    const res = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig], { env });
    expect(res.code).toBe(1);
    const json = JSON.parse(res.stdout) as StatusJson & { checklist: { id: string; state: string; label: string }[] };
    expectMatchesSchema(json, 'status');
    expect(json.fleet).toMatchObject({ hostingContext: 'kind-cp', controlPlaneContext: 'kind-cp', namespace: NS });
    expect(json.clusters.map((c) => c.name)).toEqual(['e2e-w1']);
    const byLabel = (l: string) => json.checklist.find((i) => i.label === l);
    expect(byLabel('API Server status')?.state).toBe('ok');
    expect(byLabel('ETCD status')?.state).toBe('fail');
    expect(byLabel('0 SchedulePolicies defined')?.state).toBe('warn');
    const cp = json.contexts.find((c) => c.name === 'kind-cp')!;
    expect(cp.pods?.problems.some((p) => p.namespace === NS && p.reason === 'CrashLoopBackOff')).toBe(true);

    await createSchedulePolicy(ctx('kind-cp'), 'everything');
    const again = await runCli(['status', '--kubeconfig', kubeconfig], { env });
    expect(again.stdout).toContain('* 1 SchedulePolicy defined √');
  });

  it('the read-only user: forbidden rows say which permission is missing, the rest still answers', async () => {
    const res = await runCli(['status', '--kubeconfig', readOnlyKubeconfig, '--ascii'], { env });
    expect(res.code).toBe(1);
    expect(lineOf(res.stdout, '* Control plane certificates...')).toMatch(/cannot check: cannot list secrets.*\[!!\]$/);
    expect(res.stdout).toContain('needs list and watch on secrets');
    expect(lineOf(res.stdout, '* API Server status...')).toBe('* API Server status... Running [ok]');
    // The viewer may not list Nova's objects: every row that needs them says so instead of guessing.
    expect(lineOf(res.stdout, '* Clusters...')).toMatch(/cannot check: cannot list clusters\.cluster\.elotl\.co.*\[!!\]$/);
    expect(lineOf(res.stdout, '* Agent in kind-workload-1')).toMatch(/1\/1 ready, registration cannot be checked: .*\[!!\]$/);
    expect(res.stdout).not.toContain('connected and ready');
  });

  it('--watch prints a line when a workload API server goes away and when it comes back', async () => {
    const child = spawn(process.execPath, [CLI, 'status', '--watch', '-o', 'json', '--kubeconfig', kubeconfig], {
      env: { ...process.env, ...env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: { id: string; state: string; detail: string | null }[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => lines.push(JSON.parse(l)));
    const agent2 = () => lines.filter((l) => l.id.includes('kind-workload-2'));
    try {
      await eventually('initial lines', () => lines.some((l) => l.id === 'kind-workload-2' && l.state !== 'pending'), 30_000);
      const before = lines.length;
      expect((await runCli(['sandbox', 'stop-apiserver', 'kind-workload-2', '--dir', sandboxDir])).code).toBe(0);
      await eventually('unreachable line', () =>
        lines.slice(before).some((l) => l.id === 'kind-workload-2' && l.state === 'fail' && /unreachable since/.test(l.detail ?? '')),
      );
      const mid = lines.length;
      expect((await runCli(['sandbox', 'start-apiserver', 'kind-workload-2', '--dir', sandboxDir])).code).toBe(0);
      await eventually(
        'reachable line',
        () => lines.slice(mid).some((l) => l.id === 'kind-workload-2' && /^reachable/.test(l.detail ?? '')),
        60_000,
      );
      expect(agent2().length).toBeGreaterThan(0);
      for (const l of lines) expectMatchesSchema(l, 'status-watch-line');
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.on('close', r));
      await runCli(['sandbox', 'start-apiserver', 'kind-workload-2', '--dir', sandboxDir]);
    }
  });
});

/**
 * The fleet overview counts placement on real API servers: a control plane with w1 and w2
 * connected, one Deployment its policy sends to w1 and one no cluster can fit. `fleetdeck status`
 * shows each Cluster's room and how many workloads it runs, and the pending one with its reason.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeClient } from '../../../src/kube/transport/client.js';
import type { StatusJson } from '../../../src/report/status.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { placementFleet } from '../../helpers/sandbox/placement.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const p = placementFleet('pstat');
const deployment = (name: string, cpu: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: $NS}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: nginx, resources: {requests: {cpu: "${cpu}", memory: 32Mi}}}]}
`;

beforeAll(async () => {
  const r = await p.install();
  expect(r.code, r.stdout + r.stderr).toBe(0);
  await p.toControlPlane(`apiVersion: v1
kind: Namespace
metadata: {name: $NS}
---
apiVersion: policy.elotl.co/v1alpha1
kind: SchedulePolicy
metadata: {name: $NS}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: $NS}}
  clusterSelector: {matchLabels: {kubernetes.io/metadata.name: w1}}
---${deployment('web', '100m')}---${deployment('huge', '64')}`);
}, 600_000);
afterAll(() => p.close(), 600_000);

async function status(): Promise<StatusJson> {
  const r = await p.fleet.cli(['status', '-o', 'json']);
  return JSON.parse(r.stdout) as StatusJson;
}

describe('placement in the fleet overview', { timeout: 240_000 }, () => {
  it('status -o json: each Cluster with its room and the workloads placed on it; the pending one with its reason', async () => {
    const json = await eventually(
      'web placed on w1 and huge refused',
      async () => {
        const s = await status();
        const pending = s.checklist.find((i) => i.id === 'placement/pending');
        const w1 = s.clusters.find((c) => c.name === 'w1');
        return w1?.workloads === 1 && pending?.detail?.includes('huge') ? s : undefined;
      },
      120_000,
      1000,
    );
    const [w1, w2] = ['w1', 'w2'].map((n) => json.clusters.find((c) => c.name === n)!);
    expect(w2!.workloads).toBe(0);
    for (const c of [w1!, w2!]) {
      expect(c.cpu!.allocatable).toBeGreaterThan(0);
      expect(c.cpu!.available).toBeLessThanOrEqual(c.cpu!.allocatable);
      expect(c.memory!.available).toBeLessThanOrEqual(c.memory!.allocatable);
    }
    expect(json.checklist.find((i) => i.id === 'placement/workloads')?.label).toBe('1 workload placed on 1 cluster');
    const pending = json.checklist.find((i) => i.id === 'placement/pending')!;
    expect(pending).toMatchObject({ label: '1 workload pending', state: 'warn' });
    expect(pending.detail).toMatch(new RegExp(`^worst: Deployment ${p.ns}/huge: no cluster fits: Cluster w1 skipped, room for 0 of 1 pod`));
    expect(pending.hint).toBe(`see why: fleetdeck explain deployment/huge -n ${p.ns}; all of them: fleetdeck workloads --pending`);
  });

  it('status as text: the Clusters table with CPU-FREE, MEM-FREE and WORKLOADS', async () => {
    const r = await p.fleet.cli(['status']);
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('NAME'))).toMatch(/STANDBY\s+CPU-FREE\s+MEM-FREE\s+WORKLOADS$/);
    expect(lines.find((l) => l.startsWith('w1 '))).toMatch(/\s[\d.]+\/[\d.]+\s+[\d.]+\/[\d.]+Gi\s+1$/);
    expect(r.stdout).toContain('1 workload pending');
  });
});

/** The sandbox's kubeconfig with the control plane's context as a ServiceAccount that may list nothing there. */
async function powerlessKubeconfig(): Promise<string> {
  const kc = p.fleet.cpKc();
  const core = makeClient(kc, CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'peek' } } }).catch(() => undefined);
  const token = await core.createNamespacedServiceAccountToken({ name: 'peek', namespace: 'default', body: { spec: { audiences: [] } } });
  const doc = parse(fs.readFileSync(sandbox().kubeconfig, 'utf8')) as {
    clusters: { name: string; cluster: object }[];
    users: { name: string; user: object }[];
    contexts: { name: string; context: object }[];
  };
  doc.clusters.push({ name: 'nova', cluster: { server: kc.getCurrentCluster()!.server, 'insecure-skip-tls-verify': true } });
  doc.users.push({ name: 'peek', user: { token: token.status!.token } });
  doc.contexts.push({ name: 'nova', context: { cluster: 'nova', user: 'peek' } });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-peek-')), 'kubeconfig');
  fs.writeFileSync(file, stringify(doc), { mode: 0o600 });
  return file;
}

describe('a user who may list nothing in the control plane', { timeout: 240_000 }, () => {
  it('workloads: one line naming the list refused and the permission, exit 1; status: one short cannot-check row', async () => {
    const kubeconfig = await powerlessKubeconfig();
    const env = p.fleet.env;
    const r = await runCli(['workloads', '--kubeconfig', kubeconfig], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^fleetdeck: the control plane \(nova\) could not be read: cannot list [a-z.]+: HTTP 403: .*\(needs list and watch on [a-z.]+\)$/m,
    );
    const s = await runCli(['status', '--kubeconfig', kubeconfig], { env });
    const row = s.stdout.split('\n').find((l) => l.startsWith('* Workloads...'));
    expect(row).toMatch(/cannot check: cannot list deployments\.apps, statefulsets\.apps, .* \(needs list and watch on each\) ‼$/);
  });
});

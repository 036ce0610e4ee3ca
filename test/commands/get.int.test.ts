import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import type { NodeRowJson, PodRowJson } from '../../src/report/fleet-output.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

/**
 * `fleetdeck get nodes|pods` on the sandbox: every context's nodes as kubectl sees them, in
 * JSON, YAML and a table; a pod that cannot be scheduled among the pods needing attention; a
 * context that cannot be read said on stderr while the others are printed (exit 1).
 */
const KUBECONFIG = sandbox().kubeconfig;
const CONTEXTS = ['kind-cp', 'kind-workload-1', 'kind-workload-2'];
const W2 = 'kind-workload-2';
const NS = `get-${process.pid}`;

interface KubectlNode {
  metadata: { name: string; labels: Record<string, string>; creationTimestamp: string };
  spec: { unschedulable?: boolean };
  status: { conditions: { type: string; status: string }[]; nodeInfo: { kubeletVersion: string } };
}

/** The node rows kubectl's view of a context gives (age left out). */
function kubectlNodes(context: string): Omit<NodeRowJson, 'age' | 'notReadyReason'>[] {
  const out = execFileSync('kubectl', ['--kubeconfig', KUBECONFIG, '--context', context, 'get', 'nodes', '-o', 'json'], {
    encoding: 'utf8',
  });
  return (JSON.parse(out).items as KubectlNode[])
    .map((n) => ({
      context,
      name: n.metadata.name,
      roles: Object.keys(n.metadata.labels)
        .filter((l) => l.startsWith('node-role.kubernetes.io/'))
        .map((l) => l.slice('node-role.kubernetes.io/'.length))
        .sort(),
      zone: n.metadata.labels['topology.kubernetes.io/zone'] ?? null,
      status: n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? ('Ready' as const) : ('NotReady' as const),
      cordoned: n.spec.unschedulable === true,
      kubeletVersion: n.status.nodeInfo.kubeletVersion,
      createdAt: new Date(n.metadata.creationTimestamp).toISOString(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const withoutAge = ({ age: _age, notReadyReason: _reason, ...rest }: NodeRowJson) => rest;
const kubectl = (...args: string[]) =>
  execFileSync('kubectl', ['--kubeconfig', KUBECONFIG, '--context', W2, ...args], { encoding: 'utf8' });

let core: CoreV1Api;
let cordoned = '';
let tmp = '';

beforeAll(async () => {
  core = makeClient(configForContext(loadKubeconfig({ kubeconfig: KUBECONFIG }).config, W2), CoreV1Api);
  await createNamespace(core, NS);
  // A pod no node can take.
  await core.createNamespacedPod({
    namespace: NS,
    body: {
      metadata: { name: 'stuck' },
      spec: { nodeSelector: { 'no-such-label': 'x' }, containers: [{ name: 'app', image: 'registry.example/app:1' }] },
    },
  });
  await eventually('the pod found unschedulable', async () => {
    const pod = await core.readNamespacedPod({ name: 'stuck', namespace: NS });
    return pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable');
  });
  cordoned = kubectlNodes(W2).at(-1)!.name;
  kubectl('cordon', cordoned);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-get-'));
}, 120_000);

afterAll(async () => {
  if (cordoned) kubectl('uncordon', cordoned);
  await core?.deleteNamespace({ name: NS }).catch(() => {});
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('fleetdeck get nodes', () => {
  it('--all-contexts -o json: every node of every context as kubectl sees it', async () => {
    const res = await runCli(['get', 'nodes', '--all-contexts', '--kubeconfig', KUBECONFIG, '-o', 'json']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const rows = JSON.parse(res.stdout) as NodeRowJson[];
    expectMatchesSchema(rows, 'get-nodes');
    for (const context of CONTEXTS) {
      expect(rows.filter((r) => r.context === context).map(withoutAge)).toEqual(kubectlNodes(context));
    }
    expect(rows.find((r) => r.name === cordoned)).toMatchObject({ context: W2, cordoned: true });
    expect(rows.every((r) => r.age !== null && /^\d+[smhd]$/.test(r.age))).toBe(true);
  });

  it('-o yaml gives the same objects; -o text the same rows as a table', async () => {
    const args = ['get', 'nodes', '--all-contexts', '--kubeconfig', KUBECONFIG];
    const [json, yaml, text] = await Promise.all([runCli([...args, '-o', 'json']), runCli([...args, '-o', 'yaml']), runCli(args)]);
    expect([json.code, yaml.code, text.code]).toEqual([0, 0, 0]);
    const rows = (JSON.parse(json.stdout) as NodeRowJson[]).map(withoutAge);
    expect((parse(yaml.stdout) as NodeRowJson[]).map(withoutAge)).toEqual(rows);

    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CONTEXT\s+NAME\s+ROLE\s+ZONE\s+STATUS\s+CORDONED\s+KUBELET\s+AGE$/);
    expect(lines).toHaveLength(rows.length + 1);
    const cells = lines.slice(1).map((l) => l.split(/\s{3,}|\s+(?=\S+$)/));
    expect(cells.map((c) => [c[0], c[1]])).toEqual(rows.map((r) => [r.context, r.name]));
    const line = lines.find((l) => l.includes(` ${cordoned} `)) ?? '';
    expect(line).toMatch(new RegExp(`^${W2}\\s+${cordoned}\\s+\\S+\\s+\\S+\\s+Ready\\s+yes\\s+v[\\d.]+\\s+\\d+[smhd]$`));
  });

  it('--context (repeated) reads those contexts only; without it, the current one', async () => {
    const two = await runCli(['get', 'nodes', '--kubeconfig', KUBECONFIG, '--context', 'kind-cp', '--context', W2, '-o', 'json']);
    expect(two.code).toBe(0);
    expect([...new Set((JSON.parse(two.stdout) as NodeRowJson[]).map((r) => r.context))]).toEqual(['kind-cp', W2]);

    const current = execFileSync('kubectl', ['--kubeconfig', KUBECONFIG, 'config', 'current-context'], { encoding: 'utf8' }).trim();
    const one = await runCli(['get', 'no', '--kubeconfig', KUBECONFIG, '-o', 'json']);
    expect(one.code).toBe(0);
    expect((JSON.parse(one.stdout) as NodeRowJson[]).map(withoutAge)).toEqual(kubectlNodes(current));
  });

  it('a context that cannot be read: one line on stderr, the others printed, exit 1', async () => {
    // A kubeconfig with one more context, its API server gone.
    const config = parse(fs.readFileSync(KUBECONFIG, 'utf8'));
    const user = config.contexts[0].context.user;
    config.clusters.push({ name: 'gone', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } });
    config.contexts.push({ name: 'gone', context: { cluster: 'gone', user } });
    const file = path.join(tmp, 'kubeconfig');
    fs.writeFileSync(file, stringify(config), { mode: 0o600 });

    const res = await runCli(['get', 'nodes', '--all-contexts', '--kubeconfig', file, '-o', 'json']);
    expect(res.code).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^fleetdeck: context gone: nodes not read: unreachable/)]);
    const rows = JSON.parse(res.stdout) as NodeRowJson[];
    expect([...new Set(rows.map((r) => r.context))]).toEqual(CONTEXTS);
  });
});

describe('fleetdeck get pods', () => {
  it('--all-contexts lists the pod that cannot be scheduled, as kubectl shows it Pending', async () => {
    const json = await runCli(['get', 'pods', '--all-contexts', '--kubeconfig', KUBECONFIG, '-o', 'json']);
    expect(json.code).toBe(0);
    expectMatchesSchema(JSON.parse(json.stdout), 'get-pods');
    const pod = (JSON.parse(json.stdout) as PodRowJson[]).find((p) => p.namespace === NS && p.name === 'stuck');
    expect(pod).toMatchObject({ context: W2, phase: 'Pending', restarts: 0, node: null });
    expect(pod?.reason).toMatch(/^Unschedulable: /);
    expect(kubectl('get', 'pod', 'stuck', '-n', NS, '-o', 'jsonpath={.status.phase}')).toBe('Pending');

    const yaml = await runCli(['get', 'pods', '--all-contexts', '--kubeconfig', KUBECONFIG, '-o', 'yaml']);
    // Two runs: ages move on, other tests' pods may come and go between them, and the scheduler's
    // message counts nodes other tests may cordon meanwhile.
    const stuck = (rows: PodRowJson[]) => {
      const { age: _age, reason, ...row } = rows.find((p) => p.namespace === NS && p.name === 'stuck')!;
      return { ...row, reason: reason?.replace(/:.*/, '') };
    };
    expect(yaml.code).toBe(0);
    expect(stuck(parse(yaml.stdout) as PodRowJson[])).toEqual(stuck(JSON.parse(json.stdout) as PodRowJson[]));
    expect(stuck(parse(yaml.stdout) as PodRowJson[]).reason).toBe('Unschedulable');

    const text = await runCli(['get', 'pods', '--all-contexts', '--kubeconfig', KUBECONFIG]);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^CONTEXT\s+NAMESPACE\s+POD\s+REASON\s+RESTARTS\s+AGE$/);
    expect(text.stdout).toMatch(new RegExp(`${W2}\\s+${NS}\\s+stuck\\s+Unschedulable: .*\\s0\\s+\\d+[smhd]\\n`));
  });
});

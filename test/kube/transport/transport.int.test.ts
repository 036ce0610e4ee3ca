import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Namespace } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { describeError, makeClient, makeJsonClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ResilientWatch } from '../../../src/kube/watch/watch.js';
import type { StatusJson } from '../../../src/report/status.js';
import { Forwarder } from '../../../src/sandbox/sim/forwarder.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

/** Ports WHATWG fetch refuses as "bad ports"; an API server may listen on any of them. */
const BAD_PORTS = [6666, 6667, 10080, 6000, 6665, 6668, 6669];

/** A TCP forwarder in front of `backend` on the first bad port that is free here. */
async function forwarderOnBadPort(backend: { ip: string; port: number }): Promise<Forwarder> {
  for (const port of BAD_PORTS) {
    const f = new Forwarder('127.0.0.1', port, () => [backend]);
    try {
      await f.listen();
      return f;
    } catch {
      await f.close();
    }
  }
  throw new Error(`none of the ports ${BAD_PORTS.join(', ')} is free`);
}

/** The sandbox kubeconfig with kind-cp's server moved to `server` and one more context on a closed port. */
function kubeconfigVia(server: string, file: string): void {
  const doc = parse(fs.readFileSync(kubeconfig, 'utf8'));
  const cp = doc.clusters.find((c: { name: string }) => c.name === 'kind-cp');
  cp.cluster.server = server;
  doc.clusters.push({ name: 'closed', cluster: { ...cp.cluster, server: 'https://127.0.0.1:1' } });
  const user = doc.contexts.find((c: { name: string }) => c.name === 'kind-cp').context.user;
  doc.contexts.push({ name: 'closed', context: { cluster: 'closed', user } });
  fs.writeFileSync(file, stringify(doc));
}

describe('an API server on a port fetch calls "bad"', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-transport-'));
  const file = path.join(dir, 'kubeconfig');
  const ns = `fd-transport-${process.pid}`;
  const direct = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-cp');
  let forwarder: Forwarder;
  let kc: KubeConfig;

  beforeAll(async () => {
    const target = new URL(direct.getCurrentCluster()!.server);
    forwarder = await forwarderOnBadPort({ ip: target.hostname, port: Number(target.port) });
    // Same host (127.0.0.1, in the server certificate), another port: TLS stays valid.
    kubeconfigVia(`https://127.0.0.1:${forwarder.port}`, file);
    kc = configForContext(loadKubeconfig({ kubeconfig: file }).config, 'kind-cp');
  });

  afterAll(async () => {
    await makeClient(direct, CoreV1Api)
      .deleteNamespace({ name: ns })
      .catch(() => {});
    await forwarder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists, gets, watches and writes through it', async () => {
    const core = makeClient(kc, CoreV1Api);
    await createNamespace(core, ns);
    expect((await core.readNamespace({ name: ns })).metadata?.name).toBe(ns);
    const listed = await makeJsonClient(kc).get<{ items: V1Namespace[] }>('/api/v1/namespaces');
    expect(listed.items.map((n) => n.metadata?.name)).toContain(ns);

    const seen: Record<string, string>[] = [];
    const errors: string[] = [];
    const json = makeJsonClient(kc);
    const watch = new ResilientWatch<V1Namespace>({
      kc,
      path: '/api/v1/namespaces',
      queryParams: { fieldSelector: `metadata.name=${ns}` },
      list: () => json.get('/api/v1/namespaces', { fieldSelector: `metadata.name=${ns}` }),
      onList: (items) => seen.push(...items.map((n) => n.metadata?.labels ?? {})),
      onEvent: (_type, n) => seen.push(n.metadata?.labels ?? {}),
      onError: (message) => errors.push(message),
    });
    watch.start();
    try {
      await eventually('the initial list', () => seen.length > 0);
      await core.patchNamespace(
        { name: ns, body: { metadata: { labels: { 'fleetdeck.io/transport': 'bad-port' } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await eventually('the label through the watch', () => seen.some((l) => l['fleetdeck.io/transport'] === 'bad-port'));
    } finally {
      await watch.stop();
    }
    expect(errors).toEqual([]);
  });

  it('fleetdeck status reaches it, nodes listed and watched', async () => {
    const res = await runCli(['status', '--kubeconfig', file, '--context', 'kind-cp', '-o', 'json']);
    const ctx = (JSON.parse(res.stdout) as StatusJson).contexts[0]!;
    expect(ctx.server).toBe(`https://127.0.0.1:${forwarder.port}`);
    expect(ctx.error).toBeNull();
    expect(ctx.reachable).toBe(true);
    expect(ctx.nodes?.total).toBeGreaterThan(0);
  });

  it('a context on a closed port says connection refused', async () => {
    const closed = configForContext(loadKubeconfig({ kubeconfig: file }).config, 'closed');
    const err = await makeJsonClient(closed)
      .get('/version')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(describeError(err)).toBe('connection refused');
    const res = await runCli(['status', '--kubeconfig', file, '--context', 'closed']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/Context closed \(https:\/\/127\.0\.0\.1:1\)\.\.\. unreachable since \S+ \(connection refused\)/);
  });
});

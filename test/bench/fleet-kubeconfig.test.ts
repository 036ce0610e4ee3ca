import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { fleetKubeconfig } from '../../src/bench/fleet-kubeconfig.js';
import { contextInfos, loadKubeconfig } from '../../src/kube/kubeconfig.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-kc-'));
const written: string[] = [];
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const f of written) fs.rmSync(path.dirname(f), { recursive: true, force: true });
});

const sandbox = path.join(dir, 'kubeconfig');
fs.writeFileSync(
  sandbox,
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: ['hub', 'w1', 'w2'].map((c, i) => ({ name: c, cluster: { server: `https://127.0.0.1:${6443 + i}` } })),
    users: ['hub', 'w1', 'w2'].map((u) => ({ name: u, user: { token: `t-${u}` } })),
    contexts: ['hub', 'w1', 'w2'].map((c) => ({ name: `kind-${c}`, context: { cluster: c, user: c } })),
    'current-context': 'kind-hub',
  }),
);

describe('fleetKubeconfig', () => {
  it('repeats the contexts round-robin under distinct names, each reaching its own server as its own user', async () => {
    const file = await fleetKubeconfig(sandbox, 30);
    written.push(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const infos = contextInfos(loadKubeconfig({ kubeconfig: file }).config);
    expect(infos).toHaveLength(30);
    expect(new Set(infos.map((c) => c.name)).size).toBe(30);
    expect(infos[0]).toMatchObject({ name: 'fleet-01-kind-hub', cluster: 'hub', user: 'hub', server: 'https://127.0.0.1:6443' });
    expect(infos[4]).toMatchObject({ name: 'fleet-05-kind-w1', cluster: 'w1', user: 'w1', server: 'https://127.0.0.1:6444' });
    for (const c of ['hub', 'w1', 'w2']) expect(infos.filter((i) => i.cluster === c)).toHaveLength(10);
  });

  it('refuses a count that is not a positive whole number, and a kubeconfig without contexts', async () => {
    await expect(fleetKubeconfig(sandbox, 0)).rejects.toThrow(/not a number of contexts/);
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, stringify({ apiVersion: 'v1', kind: 'Config', contexts: [] }));
    await expect(fleetKubeconfig(empty, 3)).rejects.toThrow(/has no context/);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { fleetKubeconfig } from '../../src/bench/fleet-kubeconfig.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function sandboxKubeconfig(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-kubeconfig-test-'));
  made.push(dir);
  const file = path.join(dir, 'kubeconfig');
  const names = ['kind-cp', 'kind-workload-1', 'kind-workload-2'];
  fs.writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: names.map((n) => ({ name: n, cluster: { server: `https://${n}:6443` } })),
      users: names.map((n) => ({ name: `${n}-admin`, user: { token: 't' } })),
      contexts: names.map((n) => ({ name: n, context: { cluster: n, user: `${n}-admin` } })),
      'current-context': 'kind-cp',
    }),
  );
  return file;
}

describe('fleetKubeconfig', () => {
  it('repeats the contexts round-robin under distinct names, each on its original cluster and user', async () => {
    const file = await fleetKubeconfig(sandboxKubeconfig(), 7);
    made.push(path.dirname(file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const doc = parse(fs.readFileSync(file, 'utf8')) as { contexts: { name: string; context: { cluster: string; user: string } }[] };
    expect(doc.contexts.map((c) => c.name)).toEqual([
      'kind-cp',
      'kind-workload-1',
      'kind-workload-2',
      'kind-cp-2',
      'kind-workload-1-2',
      'kind-workload-2-2',
      'kind-cp-3',
    ]);
    expect(doc.contexts[4]!.context).toEqual({ cluster: 'kind-workload-1', user: 'kind-workload-1-admin' });
    expect((doc as unknown as { clusters: unknown[] }).clusters).toHaveLength(3);
  });
});

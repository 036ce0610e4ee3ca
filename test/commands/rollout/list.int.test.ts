/**
 * `rollout list` without --context reads every context of the kubeconfig (as the Rollouts tab
 * does), a CONTEXT column first; a context it cannot read is one line on stderr, the others are
 * printed, exit 1. Each --context given: those alone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { createRollout } from '../../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../../src/rollout/types.js';
import { runCli } from '../../helpers/cli/cli.js';
import { state } from '../../helpers/objects/rollout.js';
import { expectMatchesSchema } from '../../helpers/schema.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const W1 = 'kind-workload-1';
const W2 = 'kind-workload-2';
const suffix = Math.random().toString(36).slice(2, 7);
const R1 = `t-list-a-${suffix}`;
const R2 = `t-list-b-${suffix}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-rollout-list-'));
/** Two of the sandbox's contexts and one whose server refuses connections. */
const mixed = path.join(dir, 'kubeconfig');

interface Listed {
  context: string | null;
  contexts: string[];
  rollouts: { context: string; name: string }[];
  errors: { context: string; error: string }[];
}

beforeAll(async () => {
  const loaded = loadKubeconfig({ kubeconfig }).config;
  await createRollout(configForContext(loaded, W1), state({ name: R1, context: W1 }));
  await createRollout(configForContext(loaded, W2), state({ name: R2, context: W2 }));
  const doc = parse(fs.readFileSync(kubeconfig, 'utf8')) as {
    contexts: { name: string; context: { cluster: string; user: string } }[];
    clusters: { name: string; cluster: Record<string, string> }[];
    'current-context'?: string;
  };
  const keep = doc.contexts.filter((c) => c.name === W1 || c.name === W2);
  const gone = { name: 'gone', context: { cluster: 'gone', user: keep[0]!.context.user } };
  doc.contexts = [...keep, gone];
  doc.clusters = [...doc.clusters, { name: 'gone', cluster: { server: 'https://127.0.0.1:1' } }];
  doc['current-context'] = W1;
  fs.writeFileSync(mixed, stringify(doc), { mode: 0o600 });
});

afterAll(async () => {
  const loaded = loadKubeconfig({ kubeconfig }).config;
  for (const [context, name] of [
    [W1, R1],
    [W2, R2],
  ] as const) {
    await makeClient(configForContext(loaded, context), CoreV1Api)
      .deleteNamespacedConfigMap({ name: configMapName(name), namespace: ROLLOUT_NAMESPACE })
      .catch(() => {});
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('rollout list over several contexts', () => {
  it('without --context: every context, a CONTEXT column; the one it cannot read said on stderr, exit 1', async () => {
    const r = await runCli(['rollout', 'list', '--kubeconfig', mixed]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^fleetdeck: context gone: rollouts not read: .*connection refused/),
    ]);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^CONTEXT\s+NAME\s+PHASE/);
    expect(lines.find((l) => l.includes(R1))).toMatch(new RegExp(`^${W1}\\s+${R1}\\s`));
    expect(lines.find((l) => l.includes(R2))).toMatch(new RegExp(`^${W2}\\s+${R2}\\s`));
  });

  it('-o json: every context read, each row with its context, the unreadable one under errors', async () => {
    const r = await runCli(['rollout', 'list', '--kubeconfig', mixed, '-o', 'json']);
    expect(r.code).toBe(1);
    const obj = JSON.parse(r.stdout) as Listed;
    expectMatchesSchema(obj, 'rollout-list');
    expect(obj.context).toBeNull();
    expect(obj.contexts).toEqual([W1, W2, 'gone']);
    expect(obj.rollouts.filter((x) => x.name === R1 || x.name === R2).map((x) => [x.context, x.name])).toEqual([
      [W1, R1],
      [W2, R2],
    ]);
    expect(obj.errors).toEqual([{ context: 'gone', error: expect.stringContaining('connection refused') }]);
  });

  it('each --context given: those alone, exit 0', async () => {
    const r = await runCli(['rollout', 'list', '--kubeconfig', mixed, '--context', W2, '--context', W1, '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const obj = JSON.parse(r.stdout) as Listed;
    expect(obj.contexts).toEqual([W2, W1]);
    expect(obj.rollouts.map((x) => x.name)).toEqual(expect.arrayContaining([R1, R2]));
    const one = JSON.parse((await runCli(['rollout', 'list', '--kubeconfig', mixed, '--context', W2, '-o', 'json'])).stdout) as Listed;
    expect(one.context).toBe(W2);
    expect(one.rollouts.map((x) => x.name)).toContain(R2);
    expect(one.rollouts.map((x) => x.name)).not.toContain(R1);
  });
});

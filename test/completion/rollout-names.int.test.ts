/**
 * Completion of rollout names on a sandbox cluster: with a rollout recorded in kind-workload-1,
 * `fleetdeck complete -- … rollout resume|abort|watch ''` offers its name, read from the cluster
 * of the line's --context (and of the kubeconfig's current context without one); nothing on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { createRollout } from '../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../src/rollout/types.js';
import { runCli } from '../helpers/cli/cli.js';
import { state } from '../helpers/objects/rollout.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-1';
const NAME = `t-complete-${Math.random().toString(36).slice(2, 7)}`;
let core: CoreV1Api;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-complete-int-'));

beforeAll(async () => {
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api);
  // A recorded rollout (never run): what `rollout list` shows and `rollout resume` takes.
  await createRollout(kc, state({ name: NAME, context: CONTEXT }));
});

afterAll(async () => {
  await core?.deleteNamespacedConfigMap({ name: configMapName(NAME), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
  fs.rmSync(tmp, { recursive: true, force: true });
});

const complete = (...words: string[]) => runCli(['complete', '--', ...words]);

describe('completion of rollout names from the cluster', () => {
  it('rollout resume, abort and watch offer the recorded rollout of --context', async () => {
    for (const sub of ['resume', 'abort', 'watch']) {
      const r = await complete('--kubeconfig', kubeconfig, 'rollout', sub, '--context', CONTEXT, '');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n')).toContain(`${NAME}\trollout`);
    }
    // By prefix.
    const r = await complete('--kubeconfig', kubeconfig, '--context', CONTEXT, 'rollout', 'resume', NAME.slice(0, -2));
    expect(r.stdout).toBe(`${NAME}\trollout\n:4\n`);
  });

  it('without --context: the kubeconfig’s current context', async () => {
    const copy = path.join(tmp, 'kubeconfig');
    const doc = parse(fs.readFileSync(kubeconfig, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(copy, stringify({ ...doc, 'current-context': CONTEXT }), { mode: 0o600 });
    const r = await complete('--kubeconfig', copy, 'rollout', 'abort', '');
    expect(r.stdout.split('\n')).toContain(`${NAME}\trollout`);
  });

  it('another cluster, where it is not recorded, does not offer it', async () => {
    const r = await complete('--kubeconfig', kubeconfig, '--context', 'kind-workload-2', 'rollout', 'resume', '');
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain(NAME);
  });
});

/**
 * `-o yaml` beside `-o json` on the commands that need a cluster (the sandbox's kind-workload-1):
 * the YAML parses to the object the JSON does — status, rollout list, rollout create --dry-run
 * (a stream: its plan item), approve's pending list, and logs (one document per line).
 */
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { createRollout } from '../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../src/rollout/types.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { csrFixture, type CsrFixture } from '../helpers/sandbox/csr-sandbox.js';
import { timeless } from '../helpers/kubeconfig/fake-contexts.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { state } from '../helpers/objects/rollout.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-1';
const suffix = Math.random().toString(36).slice(2, 7);
const ROLLOUT = `t-format-${suffix}`;
const NS = `format-${suffix}`;
let core: CoreV1Api;
let csr: CsrFixture;

beforeAll(async () => {
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api);
  await createRollout(kc, state({ name: ROLLOUT, context: CONTEXT }));
  csr = await csrFixture(kubeconfig, CONTEXT, 'fd-format');
  await csr.clientCsr(`${csr.P}-pending`, csr.as(csr.REQ_A));
  await createNamespace(core, NS);
  await makeClient(kc, AppsV1Api).createNamespacedDeployment({
    namespace: NS,
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' }, annotations: { 'sandbox.fleetdeck.io/log-rate': '5' } },
          spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] },
        },
      },
    },
  });
});

afterAll(async () => {
  await core?.deleteNamespacedConfigMap({ name: configMapName(ROLLOUT), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
  await core?.deleteNamespace({ name: NS }).catch(() => {});
  await csr?.cleanup();
});

const base = () => ['--kubeconfig', kubeconfig, '--context', CONTEXT];

async function both(args: string[]) {
  const json = await runCli([...args, '-o', 'json']);
  const yaml = await runCli([...args, '-o', 'yaml']);
  expect(json.stderr).toBe('');
  expect(yaml.stderr).toBe('');
  expect(yaml.code).toBe(json.code);
  return { json: json.stdout, yaml: yaml.stdout };
}

describe('-o yaml is -o json in YAML, on a cluster', () => {
  it('status', async () => {
    const { json, yaml } = await both(['status', ...base()]);
    expect(parseAllDocuments(yaml)).toHaveLength(1);
    const obj = JSON.parse(json) as { contexts: { name: string; reachability: string }[] };
    expect(obj.contexts).toEqual([expect.objectContaining({ name: CONTEXT, reachability: 'reachable' })]);
    expect(timeless(parse(yaml))).toEqual(timeless(obj));
  });

  it('rollout list', async () => {
    const { json, yaml } = await both(['rollout', 'list', ...base()]);
    const obj = JSON.parse(json) as { rollouts: { name: string }[] };
    expectMatchesSchema(obj, 'rollout-list');
    expect(obj.rollouts.map((r) => r.name)).toContain(ROLLOUT);
    expect(timeless(parse(yaml))).toEqual(timeless(obj));
  });

  it('rollout create --dry-run: the plan item of the stream', async () => {
    const node = (await core.listNode()).items[0]!.metadata!.name!;
    const args = ['rollout', 'create', ...base(), '--node', node, '--replace', 'uncordon', '--name', `t-dry-${suffix}`, '--dry-run'];
    const { json, yaml } = await both(args);
    const items = json
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    const docs = parseAllDocuments(yaml).map((d) => d.toJS() as unknown);
    expect(items).toEqual([expect.objectContaining({ kind: 'plan' })]);
    expect(timeless(docs)).toEqual(timeless(items));
  });

  it('approve: the pending requests', async () => {
    const { json, yaml } = await both(['approve', ...base()]);
    const obj = JSON.parse(json) as { pending: { name: string }[] };
    expect(obj.pending.map((c) => c.name)).toContain(`${csr.P}-pending`);
    expect(timeless(parse(yaml))).toEqual(timeless(obj));
  });

  it('logs: one document per line, each the object of the JSON line', async () => {
    const args = ['logs', ...base(), '-n', NS, 'deploy/web', '--tail', '3'];
    await eventually(
      '3 log lines of web',
      async () => (await runCli([...args, '-o', 'json'])).stdout.trim().split('\n').length === 3,
      60_000,
    );
    const { json, yaml } = await both(args);
    const items = json
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const docs = parseAllDocuments(yaml).map((d) => d.toJS() as Record<string, unknown>);
    expect(docs).toHaveLength(items.length);
    // The lines themselves move on between the two runs; where they come from does not.
    const where = ({ line: _l, time: _t, ...rest }: Record<string, unknown>) => rest;
    expect(docs.map(where)).toEqual(items.map(where));
    for (const d of docs) expect(Object.keys(d).sort()).toEqual(['container', 'context', 'line', 'namespace', 'pod', 'time']);
  });
});

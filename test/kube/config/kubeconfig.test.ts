import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { UserError } from '../../../src/errors.js';
import { configForContext, contextInfos, kubeconfigFiles, loadKubeconfig, selectContexts } from '../../../src/kube/config/kubeconfig.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-kc-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function kubeconfig(
  file: string,
  entries: { ctx: string; cluster: string; user: string; server: string; token?: string }[],
  current?: string,
): string {
  const p = path.join(dir, file);
  fs.writeFileSync(
    p,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: entries.map((e) => ({ name: e.cluster, cluster: { server: e.server } })),
      users: entries.map((e) => ({ name: e.user, user: { token: e.token ?? e.user } })),
      contexts: entries.map((e) => ({ name: e.ctx, context: { cluster: e.cluster, user: e.user } })),
      ...(current ? { 'current-context': current } : {}),
    }),
  );
  return p;
}

const a = kubeconfig(
  'a.yaml',
  [
    { ctx: 'one', cluster: 'c1', user: 'u1', server: 'https://one:6443' },
    { ctx: 'shared', cluster: 'cs', user: 'us', server: 'https://first:6443', token: 'first' },
  ],
  'one',
);
const b = kubeconfig(
  'b.yaml',
  [
    { ctx: 'two', cluster: 'c2', user: 'u2', server: 'https://two:6443' },
    { ctx: 'shared', cluster: 'cs', user: 'us', server: 'https://second:6443', token: 'second' },
  ],
  'two',
);

describe('kubeconfig loading, as kubectl does it', () => {
  it("reads extra files (the fleet's control-plane kubeconfig) after the others: their names lose, missing ones are skipped", () => {
    const { config, files } = loadKubeconfig({ kubeconfig: a, extra: [b, path.join(dir, 'gone.yaml')] });
    expect(files).toEqual([a, b]);
    expect(
      contextInfos(config)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['one', 'shared', 'two']);
    expect(configForContext(config, 'shared').getCurrentCluster()?.server).toBe('https://first:6443');
  });

  it('given KUBECONFIG with several files (and a missing one), merges them and the first file wins', () => {
    const env = { KUBECONFIG: [a, path.join(dir, 'missing.yaml'), b].join(path.delimiter), HOME: dir };
    const { config, files } = loadKubeconfig({ env });
    expect(files).toEqual([a, b]);
    expect(contextInfos(config).map((c) => c.name)).toEqual(['one', 'shared', 'two']);
    expect(config.getCluster('cs')?.server).toBe('https://first:6443');
    expect(config.getCurrentContext()).toBe('one');
  });

  it('given --kubeconfig, reads only that file', () => {
    const env = { KUBECONFIG: a, HOME: dir };
    expect(kubeconfigFiles({ kubeconfig: b, env })).toEqual([b]);
  });

  it('given nothing, falls back to ~/.kube/config, or no files at all', () => {
    expect(kubeconfigFiles({ env: { HOME: dir } })).toEqual([]);
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
    fs.copyFileSync(a, path.join(home, '.kube', 'config'));
    expect(kubeconfigFiles({ env: { HOME: home } })).toEqual([path.join(home, '.kube', 'config')]);
  });

  it('a missing --kubeconfig file is a usage error (exit 2)', () => {
    const load = () => loadKubeconfig({ kubeconfig: path.join(dir, 'nope') });
    expect(load).toThrow(UserError);
    expect(load).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('a broken file is named in one line', () => {
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(bad, 'clusters: [unclosed');
    expect(() => loadKubeconfig({ kubeconfig: bad })).toThrow(/kubeconfig .*bad\.yaml is not YAML/);
  });

  it('files that cannot be a kubeconfig are configuration errors (exit 2) naming the file', () => {
    const cases: [string, string, RegExp][] = [
      ['empty.yaml', '', /empty\.yaml is empty/],
      ['list.yaml', '- a\n- b\n', /list\.yaml is not a kubeconfig/],
      ['scalar.yaml', 'hello\n', /scalar\.yaml is not a kubeconfig/],
      ['tabs.yaml', 'clusters:\n\t- x: [\n', /tabs\.yaml is not YAML/],
    ];
    for (const [name, text, message] of cases) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      let err: unknown;
      try {
        loadKubeconfig({ kubeconfig: file });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).message).toMatch(message);
      expect((err as UserError).exitCode).toBe(2);
    }
  });

  it('an empty file in KUBECONFIG is skipped, as kubectl skips it', () => {
    const empty = path.join(dir, 'skipped-empty.yaml');
    fs.writeFileSync(empty, '');
    const { config } = loadKubeconfig({ env: { KUBECONFIG: [empty, a].join(path.delimiter) } });
    expect(config.getContexts().map((c) => c.name)).toEqual(['one', 'shared']);
  });

  it('selects named contexts and rejects unknown ones, naming the known', () => {
    const { config } = loadKubeconfig({ kubeconfig: a });
    expect(selectContexts(config, ['shared']).map((c) => c.server)).toEqual(['https://first:6443']);
    expect(() => selectContexts(config, ['zzz'])).toThrow(/context "zzz" is not in the kubeconfig \(known: one, shared\)/);
  });

  it('one KubeConfig per context: each holds only its own cluster and user', () => {
    const { config } = loadKubeconfig({ env: { KUBECONFIG: [a, b].join(path.delimiter), HOME: dir } });
    const two = configForContext(config, 'two');
    expect(two.getCurrentContext()).toBe('two');
    expect(two.getCurrentCluster()?.server).toBe('https://two:6443');
    expect(two.getCurrentUser()?.token).toBe('u2');
    expect(two.getClusters()).toHaveLength(1);
    expect(two.getUsers()).toHaveLength(1);
    // The shared config is untouched.
    expect(config.getCurrentContext()).toBe('one');
  });
});

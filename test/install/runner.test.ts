import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { mergeKubeconfigFile } from '../../src/install/kubeconfig-file.js';
import { installSteps } from '../../src/install/plan.js';
import { StepError, StepRunner } from '../../src/install/runner.js';
import { formatChecklist, type CheckItem } from '../../src/checklist/checklist.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-runner-'));
  dirs.push(d);
  return d;
}

describe('StepRunner', () => {
  it('shows the whole plan pending, runs steps in order with their elapsed time, and stops at the first failure with its hint', async () => {
    let now = 1_000;
    const published: CheckItem[][] = [];
    const runner = new StepRunner((items) => published.push(items), () => now);
    runner.plan([
      { id: 'a', label: 'First' },
      { id: 'b', label: 'Second' },
      { id: 'c', label: 'Third' },
    ]);
    expect(published[0]!.map((i) => i.state)).toEqual(['pending', 'pending', 'pending']);

    await runner.run('a', async (row) => {
      row.progress('half way');
      now += 2_500;
      return 'done';
    });
    const failure = runner.run('b', async (row) => {
      const child = row.child('b1', 'Part');
      child.set('running', '0/1');
      now += 500;
      child.set('fail', 'broken');
      throw new StepError('it broke', 'fix it like this');
    });
    await expect(failure).rejects.toThrow('it broke');
    runner.stop();

    const [a, b, c] = runner.items();
    expect(a).toMatchObject({ state: 'ok', detail: 'done', elapsedMs: 2_500 });
    expect(b).toMatchObject({ state: 'fail', detail: 'it broke', hint: 'fix it like this', elapsedMs: 500 });
    expect(b!.children?.[0]).toMatchObject({ label: 'Part', state: 'fail', detail: 'broken' });
    expect(c!.state).toBe('pending');
    // While running, a row showed its progress detail.
    expect(published.some((items) => items[0]!.state === 'running' && items[0]!.detail === 'half way')).toBe(true);
    expect(formatChecklist([a!], { ascii: true })).toBe('* First... done (2.5s) [ok]');
  });

  it('a failure that is not a StepError shows one line, never a stack', async () => {
    const runner = new StepRunner(() => {});
    runner.plan([{ id: 'x', label: 'X' }]);
    const err = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    await expect(runner.run('x', () => Promise.reject(err))).rejects.toBe(err);
    runner.stop();
    expect(runner.items()[0]).toMatchObject({ state: 'fail', detail: 'connection refused' });
  });
});

describe('installSteps', () => {
  it('lists the guide\'s steps with one row per workload cluster, fleet last', () => {
    const ids = installSteps({ workloads: [{ context: 'w1', clusterName: 'one' } as never, { context: 'w2', clusterName: 'two' } as never], dryRun: false }).map((s) => s.id);
    expect(ids).toEqual(['namespace', 'service', 'certs', 'control-plane', 'components', 'endpoint', 'kubeconfig', 'crds', 'ready', 'agent:w1', 'agent:w2', 'fleet']);
  });
});

describe('mergeKubeconfigFile', () => {
  const written = (server: string) => ({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'nova', cluster: { server } }],
    users: [{ name: 'nova-admin', user: { token: 'x' } }],
    contexts: [{ name: 'nova', context: { cluster: 'nova', user: 'nova-admin' } }],
    'current-context': 'nova',
  });

  it('adds the new context after a backup, keeps the current context, writes 0600, and does nothing the second time', () => {
    const d = tmp();
    const target = path.join(d, 'config');
    const source = path.join(d, 'nova.kubeconfig');
    fs.writeFileSync(target, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'prod', cluster: { server: 'https://prod' } }], users: [], contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'u' } }], 'current-context': 'prod' }));
    fs.writeFileSync(source, stringify(written('https://127.3.0.1:443')));

    const line = mergeKubeconfigFile(target, source, new Date('2026-11-22T10:00:00Z'));
    expect(line).toMatch(/^merged into .*config \(backup config\.fleetdeck-backup-2026-11-22T10-00-00-000Z\)$/);
    const merged = parse(fs.readFileSync(target, 'utf8'));
    expect(merged['current-context']).toBe('prod');
    expect(merged.contexts.map((c: { name: string }) => c.name)).toEqual(['prod', 'nova']);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    const backup = path.join(d, 'config.fleetdeck-backup-2026-11-22T10-00-00-000Z');
    expect(parse(fs.readFileSync(backup, 'utf8')).contexts).toHaveLength(1);
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);

    expect(mergeKubeconfigFile(target, source)).toBe(`already in ${target}`);
  });

  it('never overwrites an entry of the same name that differs, and leaves the file as it was', () => {
    const d = tmp();
    const target = path.join(d, 'config');
    const source = path.join(d, 'nova.kubeconfig');
    fs.writeFileSync(target, stringify(written('https://somewhere-else:443')));
    const before = fs.readFileSync(target, 'utf8');
    fs.writeFileSync(source, stringify(written('https://127.3.0.1:443')));
    expect(() => mergeKubeconfigFile(target, source)).toThrow(/already has a different cluster named "nova": not overwritten/);
    expect(fs.readFileSync(target, 'utf8')).toBe(before);
    expect(fs.readdirSync(d).filter((f) => f.includes('backup'))).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { mergeKubeconfigFile } from '../../src/install/kubeconfig-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-runner-'));
  dirs.push(d);
  return d;
}

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
    fs.writeFileSync(
      target,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'prod', cluster: { server: 'https://prod' } }],
        users: [],
        contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'u' } }],
        'current-context': 'prod',
      }),
    );
    fs.writeFileSync(source, stringify(written('https://127.3.0.1:443')));

    const { line, added } = mergeKubeconfigFile(target, source, new Date('2026-11-22T10:00:00Z'));
    expect(added.map((a) => `${a.kind}/${a.name}`)).toEqual(['clusters/nova', 'users/nova-admin', 'contexts/nova']);
    expect(line).toMatch(/^merged into .*config \(backup config\.fleetdeck-backup-2026-11-22T10-00-00-000Z\)$/);
    const merged = parse(fs.readFileSync(target, 'utf8'));
    expect(merged['current-context']).toBe('prod');
    expect(merged.contexts.map((c: { name: string }) => c.name)).toEqual(['prod', 'nova']);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    const backup = path.join(d, 'config.fleetdeck-backup-2026-11-22T10-00-00-000Z');
    expect(parse(fs.readFileSync(backup, 'utf8')).contexts).toHaveLength(1);
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);

    expect(mergeKubeconfigFile(target, source)).toEqual({ line: `already in ${target}`, added: [] });
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

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { mergeKubeconfigFile } from '../../src/install/kubeconfig-file.js';
import { readMergeRecord, recordMerge, unmergeKubeconfigs, unmergeLines } from '../../src/install/kubeconfig-unmerge.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const NOW = new Date('2026-11-22T11:00:00Z');
const BACKUP = 'config.fleetdeck-backup-2026-11-22T11-00-00-000Z';
const nova = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'nova', cluster: { server: 'https://127.3.0.1:443', 'certificate-authority-data': 'Q0E=' } }],
  users: [{ name: 'nova-admin', user: { 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' } }],
  contexts: [{ name: 'nova', context: { cluster: 'nova', user: 'nova-admin' } }],
  'current-context': 'nova',
};
const users = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'prod', cluster: { server: 'https://prod' } }],
  users: [{ name: 'me', user: { token: 't' } }],
  contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'me' } }],
  'current-context': 'prod',
};

/** A user's kubeconfig, the install's nova.kubeconfig merged into it, and the record of the merge. */
function installed() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-unmerge-'));
  dirs.push(d);
  const target = path.join(d, 'config');
  const source = path.join(d, 'nova.kubeconfig');
  const record = `${source}.merged.yaml`;
  fs.writeFileSync(target, stringify(users), { mode: 0o600 });
  fs.writeFileSync(source, stringify(nova));
  recordMerge(record, target, mergeKubeconfigFile(target, source, new Date('2026-11-22T10:00:00Z')).added);
  const edit = (fn: (doc: typeof nova) => void) => {
    const doc = parse(fs.readFileSync(target, 'utf8'));
    fn(doc);
    fs.writeFileSync(target, stringify(doc));
  };
  return { d, target, record, edit, doc: () => parse(fs.readFileSync(target, 'utf8')) as typeof nova };
}

describe('the merge record', () => {
  it('names each entry the install added with a digest, no key material, 0600', () => {
    const { target, record } = installed();
    const text = fs.readFileSync(record, 'utf8');
    expect(text).not.toContain('a2V5');
    expect(fs.statSync(record).mode & 0o777).toBe(0o600);
    expect(readMergeRecord(record)?.merges.map((m) => [m.file, m.entries.map((e) => `${e.kind}/${e.name}`)])).toEqual([
      [target, ['clusters/nova', 'users/nova-admin', 'contexts/nova']],
    ]);
  });

  it('keeps what an earlier run added when a later run adds nothing', () => {
    const { target, record } = installed();
    recordMerge(record, target, []);
    expect(readMergeRecord(record)?.merges[0]?.entries).toHaveLength(3);
  });
});

describe('unmergeKubeconfigs', () => {
  it('removes exactly what the install added, after a 0600 backup; the dry run only says so', () => {
    const { d, target, record, doc } = installed();
    const before = fs.readFileSync(target, 'utf8');
    const dry = unmergeKubeconfigs(record, { dryRun: true, now: NOW });
    expect(unmergeLines(dry, true)).toEqual([
      `would remove cluster nova, user nova-admin, context nova from ${target} (after a backup to ${path.join(d, BACKUP)})`,
    ]);
    expect(fs.readFileSync(target, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(d, BACKUP))).toBe(false);

    const done = unmergeKubeconfigs(record, { now: NOW });
    expect(unmergeLines(done, false)).toEqual([
      `removed cluster nova, user nova-admin, context nova from ${target} (backup ${path.join(d, BACKUP)})`,
    ]);
    expect(doc()).toEqual(users);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(d, BACKUP), 'utf8')).toBe(before);
    expect(fs.statSync(path.join(d, BACKUP)).mode & 0o777).toBe(0o600);

    // Run again: nothing left, nothing written.
    expect(unmergeLines(unmergeKubeconfigs(record, { now: new Date() }), false)).toEqual([
      `nothing to remove from ${target}; already gone: cluster nova, user nova-admin, context nova`,
    ]);
  });

  it('keeps an entry the user changed since, and what a kept context still uses', () => {
    const { target, record, edit, doc } = installed();
    edit((d) => {
      d.contexts[1]!.context = { cluster: 'nova', user: 'nova-admin', namespace: 'team' } as never;
    });
    const [res] = unmergeKubeconfigs(record, { now: NOW });
    expect(res).toMatchObject({
      removed: [],
      kept: [
        { entry: 'context nova', reason: 'changed since the install' },
        { entry: 'cluster nova', reason: 'still used by context nova' },
        { entry: 'user nova-admin', reason: 'still used by context nova' },
      ],
    });
    expect(doc().contexts.map((c) => c.name)).toEqual(['prod', 'nova']);
    expect(fs.readdirSync(path.dirname(target)).filter((f) => f.includes('backup-2026-11-22T11'))).toEqual([]);
  });

  it('a key reordering (kubectl rewrites the file) is no change; a current-context on the removed context is named', () => {
    const { record, edit, doc } = installed();
    edit((d) => {
      d.users[1]!.user = { 'client-key-data': 'a2V5', 'client-certificate-data': 'Y2VydA==' } as never;
      d['current-context'] = 'nova';
    });
    const [res] = unmergeKubeconfigs(record, { now: NOW });
    expect(res?.removed).toEqual(['cluster nova', 'user nova-admin', 'context nova']);
    expect(res?.danglingCurrentContext).toBe('nova');
    expect(unmergeLines([res!], false)[0]).toMatch(/; its current-context was nova: choose another with kubectl config use-context$/);
    expect(doc().contexts.map((c) => c.name)).toEqual(['prod']);
  });

  it('does nothing without a record', () => {
    expect(unmergeKubeconfigs('/nonexistent/nova.kubeconfig.merged.yaml')).toEqual([]);
  });
});

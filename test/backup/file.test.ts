import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupText, defaultBackupName, readBackupFile, writeBackupFile } from '../../src/backup/file.js';
import { UsageError } from '../../src/errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-backup-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const objects = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
  { apiVersion: 'policy.elotl.co/v1alpha1', kind: 'SchedulePolicy', metadata: { name: 'p1', namespace: 'team-a' }, spec: { a: 1 } },
];

function fileWith(name: string, text: string): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
}

describe('the backup file', () => {
  it('round-trips: written 0600 with a header comment, read back as the same objects', () => {
    const file = path.join(dir, 'b.yaml');
    const at = new Date('2026-11-26T10:00:00.000Z');
    writeBackupFile(file, backupText(objects, { context: 'nova', at, includeSecrets: false }));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('# fleetdeck backup of the control plane (context nova), 2026-11-26T10:00:00.000Z');
    expect(readBackupFile(file)).toEqual(objects);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('names a default file with the context and a time a file name can hold', () => {
    expect(defaultBackupName('nova', new Date('2026-11-26T10:00:00.000Z'))).toBe('fleetdeck-backup-nova-2026-11-26T10-00-00-000Z.yaml');
  });

  it.each([
    [
      'missing',
      undefined,
      /^backup file .*missing\.yaml does not exist; give the path of a file fleetdeck backup wrote \(fleetdeck backup -f FILE writes one\)$/,
    ],
    ['empty', '', /holds no object to restore/],
    ['comments', '# nothing\n---\n', /holds no object to restore/],
    ['not-yaml', 'a: [1, 2\n', /is not valid YAML \(line \d+: /],
    ['list', '- 1\n- 2\n', /document 1 is not a Kubernetes object/],
    [
      'no-name',
      '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n',
      /document 2 is not a Kubernetes object/,
    ],
  ])('%s: one line, a usage error (exit 2)', (name, text, message) => {
    const file = text === undefined ? path.join(dir, `${name}.yaml`) : fileWith(`${name}.yaml`, text);
    let err: unknown;
    try {
      readBackupFile(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('the seal in the header', () => {
  const sealed = () => backupText(objects, { context: 'nova', at: new Date('2026-11-26T10:00:00.000Z'), includeSecrets: false });
  const refusal = (file: string) => {
    try {
      readBackupFile(file);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    return undefined;
  };

  it('names the count and the digest of the body', () => {
    expect(sealed()).toMatch(/^# fleetdeck-backup: objects=2 sha256=[0-9a-f]{64}$/m);
  });

  it('refuses a file cut short on a line boundary (still valid YAML), in one line', () => {
    const text = sealed();
    const cut = text.slice(0, text.lastIndexOf('---\n'));
    const message = refusal(fileWith('cut.yaml', cut));
    expect(message).toMatch(
      /^backup file .*cut\.yaml does not match its header \(written with 2 objects; the digest differs\): it was cut short or edited/,
    );
    expect(message).not.toContain('\n');
  });

  it('refuses an edited value; with the seal line deleted, the edited file is restored as it is', () => {
    const edited = sealed().replace('a: 1', 'a: 2');
    expect(refusal(fileWith('edited.yaml', edited))).toMatch(/does not match its header/);
    const unsealed = edited.replace(/^# fleetdeck-backup:.*\n/m, '');
    expect(readBackupFile(fileWith('unsealed.yaml', unsealed))[1]).toMatchObject({ spec: { a: 2 } });
  });

  it('a file written before the seal is checked by the count in its header', () => {
    const old = sealed().replace(/^# fleetdeck-backup:.*\n/m, '');
    expect(readBackupFile(fileWith('old.yaml', old))).toEqual(objects);
    const cut = old.slice(0, old.lastIndexOf('---\n'));
    expect(refusal(fileWith('old-cut.yaml', cut))).toMatch(/holds 1 objects where its header says 2: it was cut short or edited/);
  });
});

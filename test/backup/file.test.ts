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

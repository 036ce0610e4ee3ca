/**
 * `fleetdeck backup` on a control plane installed on the sandbox: Secrets' data only with
 * --include-secrets (never printed), the file 0600; `--read-only` lets the backup and a restore's
 * dry run read, and refuses the restore in one line; the uninstall's plan says whether it backs up.
 */
import fs from 'node:fs';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { makeClient } from '../../src/kube/transport/client.js';
import { type NovaFleet, novaFleet } from '../helpers/sandbox/nova-fleet.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const TEAM = 'team-s';
const PASSWORD = 'correct-horse-battery-staple';
let fleet: NovaFleet;

const docs = (file: string) =>
  parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as { kind: string; metadata: { name: string }; data?: Record<string, string> } | null)
    .filter((d) => d !== null);

beforeAll(async () => {
  fleet = novaFleet(sandbox().kubeconfig, 'nova-backup');
  const install = await fleet.install();
  expect(install.code, install.stdout + install.stderr).toBe(0);
  const core = makeClient(fleet.cpKc(), CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: TEAM } } });
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'db' }, stringData: { password: PASSWORD } } });
  await core.createNamespacedConfigMap({ namespace: TEAM, body: { metadata: { name: 'cfg' }, data: { a: 'b' } } });
});

afterAll(async () => {
  await fleet.close();
});

describe('fleetdeck backup', () => {
  it('skips Secrets unless --include-secrets, writes 0600, never prints secret data', async () => {
    const without = `${fleet.dir}/plain.yaml`;
    const plain = await fleet.cli(['backup', '-f', without]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`to ${without} (mode 0600)`);
    // The Day 2 page's rows, one line each as they end, before the summary per kind
    expect(plain.stdout).toMatch(/Discover the kinds to back up\.\.\. \d+ kinds/);
    expect(plain.stdout).toMatch(/Read the objects\.\.\. \d+ objects kept/);
    expect(plain.stdout).toContain(`Write the backup file`);
    expect(plain.stdout.indexOf('Write the backup file')).toBeLessThan(plain.stdout.indexOf('Backed up '));
    expect(plain.stdout).toMatch(/^Secret\s+v1\s+0\s+.*1 data not included \(--include-secrets\)/m);
    expect(fs.statSync(without).mode & 0o777).toBe(0o600);
    const kept = docs(without);
    expect(kept.map((d) => `${d.kind} ${d.metadata.name}`)).toEqual([`Namespace ${TEAM}`, 'ConfigMap cfg']);
    const b64 = Buffer.from(PASSWORD).toString('base64');
    expect(fs.readFileSync(without, 'utf8')).not.toContain(b64);

    const withSecrets = `${fleet.dir}/secrets.yaml`;
    const full = await fleet.cli(['backup', '-f', withSecrets, '--include-secrets', '-o', 'json']);
    expect(full.code, full.stderr).toBe(0);
    expect(fs.statSync(withSecrets).mode & 0o777).toBe(0o600);
    const secret = docs(withSecrets).find((d) => d.kind === 'Secret');
    expect(secret?.data).toEqual({ password: b64 });
    const out = JSON.parse(full.stdout) as { includeSecrets: boolean; kinds: { kind: string; objects: number }[] };
    expectMatchesSchema(out, 'backup');
    expect(out.includeSecrets).toBe(true);
    expect(out.kinds.find((k) => k.kind === 'Secret')?.objects).toBe(1);
    for (const text of [plain.stdout, plain.stderr, full.stdout, full.stderr]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(b64);
    }
  });

  it('--read-only: the backup and a dry run read; the restore is refused in one line before any request', async () => {
    const file = `${fleet.dir}/ro.yaml`;
    const backup = await fleet.cli(['--read-only', 'backup', '-f', file]);
    expect(backup.code, backup.stderr).toBe(0);
    const dry = await fleet.cli(['--read-only', 'restore', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('0 to create, 0 to update, 2 unchanged.');
    const dryJson = await fleet.cli(['--read-only', 'restore', file, '--dry-run', '-o', 'json']);
    expect(dryJson.code, dryJson.stderr).toBe(0);
    expectMatchesSchema(JSON.parse(dryJson.stdout), 'restore');
    const refused = await fleet.cli(['--read-only', 'restore', file, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'fleetdeck: restore writes to the control plane and is refused with --read-only (use --dry-run to see its plan)',
    ]);
  });

  it("uninstall's plan says whether it backs up, and where", async () => {
    const args = ['uninstall', '--hosting-context', 'kind-cp', '--namespace', fleet.namespace, '--dry-run'];
    const dry = await fleet.cli(args);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `Backup: would write the control plane's objects to ${fleet.dir}/backups/fleetdeck-backup-nova-\\S+\\.yaml first \\(skip it with --no-backup\\)\\.`,
      ),
    );
    const none = await fleet.cli([...args, '--no-backup', '-o', 'json']);
    expectMatchesSchema(JSON.parse(none.stdout), 'uninstall');
    expect(JSON.parse(none.stdout)).toMatchObject({ dryRun: true, backup: null });
    const text = await fleet.cli([...args, '--no-backup']);
    expect(text.stdout).toContain('Backup: none (--no-backup)');
  });
});

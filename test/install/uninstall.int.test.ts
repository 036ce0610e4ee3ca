/**
 * The uninstall takes out of the user's kubeconfig exactly what the install merged into it
 * (`install --merge-kubeconfig`), after a backup, and its dry run says so first. The user's
 * kubeconfig here is a copy of the sandbox's: the shared one is never changed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { runCli } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const shared = sandbox().kubeconfig;
const NS = `nova-merge-${Math.random().toString(36).slice(2, 7)}`;

interface Doc {
  clusters: { name: string }[];
  users: { name: string }[];
  contexts: { name: string; context: Record<string, string> }[];
  'current-context'?: string;
}

let dir: string;
let userKubeconfig: string;
let env: NodeJS.ProcessEnv;
const args = (cmd: 'install' | 'uninstall', ...more: string[]) => [
  cmd,
  '--kubeconfig',
  userKubeconfig,
  '--hosting-context',
  'kind-cp',
  '--namespace',
  NS,
  ...more,
];
const read = (): Doc => parse(fs.readFileSync(userKubeconfig, 'utf8')) as Doc;
const names = (d: Doc) => ({
  clusters: d.clusters.map((x) => x.name),
  users: d.users.map((x) => x.name),
  contexts: d.contexts.map((x) => x.name),
});

async function namespaceGone(): Promise<boolean> {
  const core = makeClient(configForContext(loadKubeconfig({ kubeconfig: shared }).config, 'kind-cp'), CoreV1Api);
  return core.readNamespace({ name: NS }).then(
    () => false,
    (e: unknown) => statusCode(e) === 404,
  );
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-unmerge-'));
  userKubeconfig = path.join(dir, 'config');
  fs.copyFileSync(shared, userKubeconfig);
  fs.chmodSync(userKubeconfig, 0o600);
  env = { FLEETDECK_FLEET_FILE: path.join(dir, 'fleet.yaml') };
});

afterAll(async () => {
  await runCli(args('uninstall', '--yes'), { env, timeoutMs: 600_000 });
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('uninstall and the kubeconfig the install merged into', () => {
  it('removes the nova context, cluster and user the install added, and only those, after a backup; the dry run says so', async () => {
    const before = read();
    const install = await runCli(args('install', '--no-ha', '--yes', '--merge-kubeconfig'), { env, timeoutMs: 600_000 });
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const merged = read();
    expect(names(merged)).toEqual({
      clusters: [...names(before).clusters, 'nova'],
      users: [...names(before).users, 'nova-admin'],
      contexts: [...names(before).contexts, 'nova'],
    });
    // Since the install, the user added a context of their own (and kept nova as it was).
    merged.contexts.push({ name: 'mine', context: { cluster: 'kind-cp', user: 'kind-cp-admin', namespace: NS } });
    fs.writeFileSync(userKubeconfig, stringify(merged), { mode: 0o600 });
    const edited = fs.readFileSync(userKubeconfig, 'utf8');
    const cpKubeconfig = path.join(dir, 'nova.kubeconfig');
    expect(fs.existsSync(cpKubeconfig)).toBe(true);

    // The dry run says what it would remove, and changes nothing.
    const dry = await runCli(args('uninstall', '--dry-run'), { env, timeoutMs: 120_000 });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      new RegExp(
        `Kubeconfig: would remove cluster nova, user nova-admin, context nova from ${userKubeconfig} \\(after a backup to ${userKubeconfig}\\.fleetdeck-backup-[-0-9TZ]+\\)\\.`,
      ),
    );
    expect(dry.stdout).toContain(`Files: would remove ${path.join(dir, 'fleet.yaml')}, ${cpKubeconfig}, ${cpKubeconfig}.merged.yaml.`);
    expect(dry.stdout).toContain('Dry run: nothing was changed.');
    expect(fs.readFileSync(userKubeconfig, 'utf8')).toBe(edited);
    expect(await namespaceGone()).toBe(false);

    const res = await runCli(args('uninstall', '--yes'), { env, timeoutMs: 600_000 });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    const backup = res.stdout.match(/\(backup ([^)]+)\)/)?.[1];
    expect(backup).toMatch(new RegExp(`^${userKubeconfig}\\.fleetdeck-backup-`));
    expect(res.stdout).toContain(`removed cluster nova, user nova-admin, context nova from ${userKubeconfig} (backup ${backup})`);
    // The backup is the file as it was, 0600; the file lost exactly what the install added.
    expect(fs.readFileSync(backup!, 'utf8')).toBe(edited);
    expect(fs.statSync(backup!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(userKubeconfig).mode & 0o777).toBe(0o600);
    expect(names(read())).toEqual({ ...names(before), contexts: [...names(before).contexts, 'mine'] });
    expect(read()['current-context']).toBe(before['current-context']);
    expect(fs.existsSync(cpKubeconfig)).toBe(false);
    expect(fs.existsSync(`${cpKubeconfig}.merged.yaml`)).toBe(false);
    expect(await namespaceGone()).toBe(true);
  });
});

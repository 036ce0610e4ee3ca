/** `fleetdeck approve` without a cluster: the context is checked before --yes is asked for. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cli/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-approve-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const kubeconfig = path.join(tmp, 'dead.yaml');
fs.writeFileSync(
  kubeconfig,
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'dead', cluster: { server: 'https://127.0.0.1:1' } }],
    users: [{ name: 'u', user: { token: 'x' } }],
    contexts: [{ name: 'dead', context: { cluster: 'dead', user: 'u' } }],
  }),
);

describe('approve NAME without --yes and without a terminal', () => {
  it('an unknown or repeated --context first, then --yes', async () => {
    const approve = (...args: string[]) => runCli(['approve', 'csr-1', '--kubeconfig', kubeconfig, ...args], { env });
    const unknown = await approve('--context', 'nope');
    expect(unknown.stderr).toMatch(/^fleetdeck: context "nope" is not in the kubeconfig \(known: dead\)/);
    const twice = await approve('--context', 'dead,other');
    expect(twice.stderr).toBe('fleetdeck: approve works on one cluster: give --context once (got dead, other)\n');
    const noYes = await approve('--context', 'dead');
    expect(noYes.stderr).toBe('fleetdeck: approving changes the cluster: confirm with --yes\n');
    for (const r of [unknown, twice, noYes]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});

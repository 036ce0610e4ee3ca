/** `fleetdeck approve` without a cluster: the context is checked before --yes is asked for. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-approve-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const kubeconfig = writeUnreachableKubeconfig(path.join(tmp, 'dead.yaml'), ['dead']);

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

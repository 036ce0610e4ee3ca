/** `fleetdeck certs renew` refusals that need no cluster: one line on stderr, exit 2, nothing on stdout. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-renew-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, line: string) {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([line]);
  expect(r.stdout).toBe('');
}

describe('fleetdeck certs renew without a cluster', () => {
  it('--rotate-ca with a name that is not a CA is refused before anything is read; --read-only refuses it too', async () => {
    expectRefused(
      await runCli(['certs', 'renew', 'admin', '--rotate-ca', '--yes'], { env }),
      'fleetdeck: certs renew --rotate-ca: "admin" is not a CA (rotatable: all, cluster-ca, etcd-ca, front-proxy-ca); renew leaves without --rotate-ca',
    );
    expectRefused(
      await runCli(['--read-only', 'certs', 'renew', 'all', '--rotate-ca', '--yes'], { env }),
      "fleetdeck: certs renew changes the control plane's certificates and is refused with --read-only (use --dry-run to see its plan)",
    );
  });

  it('--read-only is refused before anything is read; --dry-run is not', async () => {
    expectRefused(
      await runCli(['--read-only', 'certs', 'renew', '--yes'], { env }),
      "fleetdeck: certs renew changes the control plane's certificates and is refused with --read-only (use --dry-run to see its plan)",
    );
    const dry = await runCli(['--read-only', 'certs', 'renew', '--dry-run'], { env });
    expect(dry.stderr).not.toMatch(/read-only/);
  });

  it('help names the subcommand under certs', async () => {
    const help = await runCli(['certs', '--help'], { env });
    expect(help.stdout).toMatch(/renew \[options\] \[names\.\.\.\]/);
  });
});

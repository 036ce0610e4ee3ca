/**
 * The built CLI: a targeting global flag a command does not use is refused in one line, exit 2,
 * before the command runs (nothing on stdout, no question asked); one it uses reaches it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-global-flags-cli-'));
const env = { HOME: tmp, KUBECONFIG: '', XDG_STATE_HOME: path.join(tmp, 'state') };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A kubeconfig with one context, `dead`, whose server nothing answers (no test here reaches it). */
const kubeconfig = writeUnreachableKubeconfig(path.join(tmp, 'dead.yaml'), ['dead']);

function expectRefused(r: { code: number | null; stdout: string; stderr: string }, line: string) {
  expect(r.stderr).toBe(`${line}\n`);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
}

describe('a targeting global flag the command does not use', () => {
  it('install --context: refused, naming --workload with the value given, before anything is checked or asked', async () => {
    expectRefused(
      await runCli(['install', '--context', 'a,b', '--yes'], { env }),
      'fleetdeck: install does not use --context; the workload clusters are named with --workload (e.g. --workload a,b)',
    );
    // Without --yes nor a terminal: still the flag first, not the confirmation.
    expectRefused(
      await runCli(['uninstall', '--hosting-context', 'dead', '--context', 'w1'], { env }),
      'fleetdeck: uninstall does not use --context; the workload clusters are named with --workload (e.g. --workload w1)',
    );
  });

  it('sandbox up --hosting-context, explain --namespace, move -o: refused in one line', async () => {
    expectRefused(
      await runCli(['sandbox', 'up', '--hosting-context', 'kind-cp', '--dir', path.join(tmp, 'sandbox')], { env }),
      'fleetdeck: sandbox up does not use --hosting-context',
    );
    expectRefused(
      await runCli(['explain', 'deploy/web', '--namespace', 'shop'], { env }),
      "fleetdeck: explain does not use --namespace; the workload's namespace is -n/--workload-namespace (e.g. -n shop)",
    );
    expectRefused(await runCli(['move', 'deploy/web', '--to', 'w2', '-o', 'json'], { env }), 'fleetdeck: move does not use -o/--output');
  });

  it('the flags a command uses reach it: its own errors, not a refusal', async () => {
    const status = await runCli(['status', '--kubeconfig', kubeconfig, '--context', 'nope'], { env });
    expect(status.stderr).toMatch(/^fleetdeck: context "nope" is not in the kubeconfig/);
    const logs = await runCli(['logs', '--kubeconfig', kubeconfig, '--context', 'dead', '--context', 'gone', 'pod/x'], { env });
    expect(logs.stderr).toMatch(/^fleetdeck: context "gone" is not in the kubeconfig/);
    const get = await runCli(['get', 'pods', '--all-contexts', '--context', 'dead', '--kubeconfig', kubeconfig], { env });
    expect(get.stderr).toBe('fleetdeck: get: give --all-contexts or --context, not both\n');
    const backup = await runCli(['backup', '--kubeconfig', kubeconfig, '--hosting-context', 'gone'], { env });
    expect(backup.stderr).toMatch(/^fleetdeck: hosting context "gone" \(from --hosting-context\) is not in the kubeconfig/);
    const uninstall = await runCli(['uninstall', '--kubeconfig', kubeconfig, '--hosting-context', 'gone', '--namespace', 'ns'], { env });
    expect(uninstall.stderr).toMatch(/^fleetdeck: context "gone" \(--hosting-context\) is not in the kubeconfig/);
    for (const r of [status, logs, get, backup, uninstall]) expect(r.stderr).not.toMatch(/does not use/);
  });
});

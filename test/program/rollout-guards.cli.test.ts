/**
 * `rollout create`'s guard-rail flags without a cluster: a bad one is said in one line on stderr,
 * exit 2, no stack trace — before --yes is asked for and before the cluster is read (the
 * kubeconfig's server answers nothing: reading it would say so instead).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-rollout-guards-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const kubeconfig = writeUnreachableKubeconfig(path.join(tmp, 'dead.yaml'), ['x']);
const create = (...args: string[]) =>
  runCli(['rollout', 'create', '--context', 'x', '--node', 'n1', ...args, '--kubeconfig', kubeconfig], { env });

/** One line on stderr (`line` exactly, or matching it), exit 2, nothing on stdout. */
function expectRefused(r: { code: number | null; stdout: string; stderr: string }, line: string | RegExp) {
  const said = typeof line === 'string' ? new RegExp(`^fleetdeck: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`) : line;
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(said);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
}

describe('rollout create: a bad guard-rail flag in one line, exit 2', () => {
  it('--window "Sat 25:00-06:00", with and without --yes (before the cluster is read)', async () => {
    const why =
      'bad maintenance window "Sat 25:00-06:00": start "25:00" is not a time HH:MM from 00:00 to 23:59; expected DAYS HH:MM-HH:MM [ZONE], e.g. "Sat,Sun 02:00-06:00 Europe/Berlin", "Mon-Fri 22:00-04:00 UTC", "* 01:00-05:00"';
    expectRefused(await create('--window', 'Sat 25:00-06:00'), why);
    expectRefused(await create('--window', 'Sat 25:00-06:00', '--yes'), why);
  });

  it('the budget, the alert gate and the labels', async () => {
    expectRefused(await create('--budget', '120%'), 'bad budget size "120%": a percentage is at most 100%');
    expectRefused(
      await create('--budget-schedule', '0 at 0 9 * * for 8h'),
      /^fleetdeck: bad budget schedule "0 at 0 9 \* \* for 8h": cron "0 9 \* \*" has 4 fields/,
    );
    expectRefused(
      await create('--prometheus-url', 'http://p:9090', '--alertmanager-url', 'http://a:9093'),
      'give --prometheus-url or --alertmanager-url, not both',
    );
    expectRefused(
      await create('--alert-ignore', '^Watchdog$'),
      '--alert-ignore, --alert-match and --alert-pending need --prometheus-url or --alertmanager-url',
    );
    expectRefused(
      await create('--label-before', 'bad key=v'),
      `--label-before bad key=v: "bad key" is not a label key (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`,
    );
  });

  it('--recheck below 1s, and --notify-template without --notify-url', async () => {
    expectRefused(await create('--recheck', '500ms'), '--recheck must be at least 1s');
    expectRefused(await create('--notify-template', 'blocked=held'), '--notify-format and --notify-template need --notify-url');
  });

  it('what commander refuses: a policy not among the choices, a duration that is not one', async () => {
    expectRefused(
      await create('--on-drain-timeout', 'later'),
      "option '--on-drain-timeout <policy>' argument 'later' is invalid: allowed choices are pause, skip, force; run `fleetdeck --help` for usage",
    );
    expectRefused(
      await create('--recheck', 'later'),
      /^fleetdeck: option '--recheck <duration>' argument 'later' is invalid: "later" is not a duration for --recheck/,
    );
  });

  it('the guard rails of -f: FILE:LINE', async () => {
    const file = path.join(tmp, 'rollout.yaml');
    fs.writeFileSync(
      file,
      'apiVersion: navarchos.pusher.com/v1alpha1\nkind: NodeRollout\nspec:\n  nodeNames: [{ name: n1 }]\n  guardRails:\n    drainTimeout: later\n',
    );
    expectRefused(
      await runCli(['rollout', 'create', '--context', 'x', '-f', file, '--yes', '--kubeconfig', kubeconfig], { env }),
      `${file}:6: spec.guardRails.drainTimeout must be pause, skip or force`,
    );
  });

  it('good guard rails: on to --yes', async () => {
    expectRefused(
      await create(
        '--window',
        'Sat,Sun 02:00-06:00 Europe/Berlin',
        '--budget',
        '1',
        '--soak',
        '10m',
        '--notify-url',
        'https://hooks.example/x',
      ),
      'rollout create changes the cluster: confirm with --yes (or look first with --dry-run)',
    );
  });
});

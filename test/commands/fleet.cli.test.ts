/**
 * `fleetdeck fleet list|use` and `--fleet NAME`, as a user runs them: the fleets a fleet file
 * records, the one a run works on, and the one-line refusals (exit 2) — no cluster needed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli/cli.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';
import { expectMatchesSchema } from '../helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const kubeconfig = writeUnreachableKubeconfig(path.join(tmp, 'kubeconfig'), ['kind-cp', 'kind-w1', 'kind-staging', 'kind-s1']);

let n = 0;
/** A fleet file of its own, and the env that points fleetdeck at it. */
function fleetFile(text?: string) {
  const file = path.join(tmp, `f${++n}`, 'fleet.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (text !== undefined) fs.writeFileSync(file, text);
  return { file, env: { HOME: tmp, KUBECONFIG: kubeconfig, FLEETDECK_FLEET_FILE: file } };
}
const TWO = `current: default
fleets:
  default: {hostingContext: kind-cp, workloads: [kind-w1]}
  staging: {hostingContext: kind-staging, workloads: [kind-s1]}
`;

interface Listed {
  file: string;
  fleets: { name: string; current: boolean; hostingContext: string; workloads: string[] }[];
}

describe('fleetdeck fleet', () => {
  it('list: none recorded, then a file of one fleet (the fleet "default")', async () => {
    const none = fleetFile();
    const empty = await runCli(['fleet', 'list'], { env: none.env });
    expect(empty.stdout).toBe(`No fleet recorded in ${none.file}: fleetdeck install records one.\n`);
    expect(empty.code).toBe(0);
    const one = fleetFile('hostingContext: kind-cp\nworkloads: [kind-w1]\n');
    const r = await runCli(['fleet', 'list', '-o', 'json'], { env: one.env });
    expect(r.code).toBe(0);
    const obj = JSON.parse(r.stdout) as Listed;
    expectMatchesSchema(obj, 'fleet-list');
    expect(obj.fleets).toEqual([
      expect.objectContaining({ name: 'default', current: true, hostingContext: 'kind-cp', workloads: ['kind-w1'] }),
    ]);
  });

  it('list marks the fleet of the run: the current one, or the one --fleet names; use makes another current', async () => {
    const f = fleetFile(TWO);
    const table = await runCli(['fleet', 'list'], { env: f.env });
    expect(table.stdout.split('\n').slice(0, 3)).toEqual([
      expect.stringMatching(/^CURRENT\s+NAME\s+HOSTING\s+CONTROL-PLANE\s+NAMESPACE\s+WORKLOADS$/),
      expect.stringMatching(/^\*\s+default\s+kind-cp\s+nova\s+elotl\s+kind-w1$/),
      expect.stringMatching(/^\s+staging\s+kind-staging\s+nova\s+elotl\s+kind-s1$/),
    ]);
    const flagged = JSON.parse((await runCli(['--fleet', 'staging', 'fleet', 'list', '-o', 'json'], { env: f.env })).stdout) as Listed;
    expect(flagged.fleets.filter((x) => x.current).map((x) => x.name)).toEqual(['staging']);
    const use = await runCli(['fleet', 'use', 'staging'], { env: f.env });
    expect(use.stdout).toBe('Commands now work on the fleet staging (hosted in kind-staging).\n');
    expect(use.code).toBe(0);
    expect((parse(fs.readFileSync(f.file, 'utf8')) as { current: string }).current).toBe('staging');
    expect(fs.statSync(f.file).mode & 0o777).toBe(0o600);
  });

  it('a fleet the file does not record, a name that is none, a command that reads no fleet: one line each, exit 2', async () => {
    const f = fleetFile(TWO);
    const cases: [string[], RegExp][] = [
      [['fleet', 'use', 'prod'], /^fleetdeck: no fleet "prod" in .*fleet\.yaml \(it records default, staging\)\n$/],
      [
        ['status', '--fleet', 'prod'],
        /^fleetdeck: no fleet "prod" in .*fleet\.yaml \(it records default, staging\); fleetdeck fleet list shows them\n$/,
      ],
      [['--fleet', 'no good', 'status'], /^fleetdeck: --fleet: "no good" is not a fleet name \(letters, digits, -, _ and \.\)\n$/],
      [
        ['approve', '--fleet', 'staging'],
        /^fleetdeck: approve does not use --fleet; it chooses the fleet of the commands that read the fleet file/,
      ],
    ];
    for (const [args, err] of cases) {
      const r = await runCli(args, { env: f.env });
      expect(r.stderr, args.join(' ')).toMatch(err);
      expect(r.stdout).toBe('');
      expect(r.code).toBe(2);
    }
    expect(fs.readFileSync(f.file, 'utf8')).toBe(TWO);
  });

  it('uninstall --fleet NAME removes that fleet as recorded (its namespace), and forgets it alone', async () => {
    const f = fleetFile(`current: default
fleets:
  default: {hostingContext: kind-cp, workloads: [kind-w1]}
  staging: {hostingContext: kind-staging, namespace: stg, workloads: [kind-s1]}
`);
    const r = await runCli(['uninstall', '--fleet', 'staging', '--dry-run'], { env: f.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: remove the control plane from kind-staging (namespace stg) and the agents from kind-s1:');
    expect(r.stdout).toContain(`Files: would remove ${f.file} (fleet staging).`);
    expect(r.stdout).toContain(path.join(path.dirname(f.file), 'fleets', 'staging', 'backups'));
  });

  it('two fleets never share a namespace of a cluster: install and uninstall refuse in one line, exit 2, nothing changed', async () => {
    const text = `current: default
fleets:
  default: {hostingContext: kind-cp, workloads: [kind-w1, kind-s1]}
  staging: {hostingContext: kind-staging, workloads: [kind-s1]}
`;
    const f = fleetFile(text);
    const install = await runCli(['install', '--fleet', 'qa', '--hosting-context', 'kind-staging', '--workload', 'kind-w1', '--yes'], {
      env: f.env,
    });
    expect(install.stderr).toBe(
      'fleetdeck: fleet default uses namespace elotl in kind-w1 too; fleet staging uses namespace elotl in kind-staging too: two fleets in one namespace would share their agents; choose another --namespace\n',
    );
    expect(install.code).toBe(2);
    const uninstall = await runCli(['uninstall', '--fleet', 'staging', '--dry-run'], { env: f.env });
    expect(uninstall.stderr).toBe(
      'fleetdeck: fleet default uses namespace elotl in kind-s1 too: the uninstall would delete its agents there; leave those clusters out with --workload\n',
    );
    expect(uninstall.code).toBe(2);
    expect(fs.readFileSync(f.file, 'utf8')).toBe(text);
  });
});

/**
 * Two fleets in one fleet file, on the sandbox's clusters: `status` reads the current one alone
 * and `--fleet NAME` the other, never both; `fleet use` changes which one a run without
 * `--fleet` reads.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-two-fleets-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = path.join(dir, 'fleet.yaml');
fs.writeFileSync(
  file,
  `current: one
fleets:
  one: {hostingContext: kind-workload-1, namespace: fleet-one}
  two: {hostingContext: kind-workload-2, namespace: fleet-two}
`,
);
const env = { HOME: dir, FLEETDECK_FLEET_FILE: file };

interface Status {
  fleet: { name?: string; hostingContext: string; namespace: string };
  contexts: { name: string }[];
}

async function status(...args: string[]): Promise<Status> {
  const r = await runCli(['status', '--kubeconfig', kubeconfig, '-o', 'json', ...args], { env, timeoutMs: 60_000 });
  const obj = JSON.parse(r.stdout) as Status;
  expectMatchesSchema(obj, 'status');
  return obj;
}

describe('two fleets in one fleet file', () => {
  it('status reads the current fleet alone, --fleet the other; fleet use switches the default', async () => {
    const current = await status();
    expect(current.fleet).toMatchObject({ name: 'one', hostingContext: 'kind-workload-1', namespace: 'fleet-one' });
    expect(current.contexts.map((c) => c.name)).toEqual(['kind-workload-1']);
    const other = await status('--fleet', 'two');
    expect(other.fleet).toMatchObject({ name: 'two', hostingContext: 'kind-workload-2', namespace: 'fleet-two' });
    expect(other.contexts.map((c) => c.name)).toEqual(['kind-workload-2']);
    expect((await runCli(['fleet', 'use', 'two'], { env })).code).toBe(0);
    expect((await status()).fleet.hostingContext).toBe('kind-workload-2');
  });
});

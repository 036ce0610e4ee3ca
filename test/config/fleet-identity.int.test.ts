/**
 * The fleet file knows its clusters, on the sandbox's real API servers: a fleet recorded with
 * kind-cp and kind-workload-1 as they are, then a second kubeconfig with the same context names
 * whose kind-cp is another cluster (kind-workload-2's). Through it, `status` shows one row naming
 * what was recorded and what the kubeconfig says, and the kubeconfig's own contexts; the other
 * cluster's API server sees no request for the fleet's namespace; a command that acts on the
 * fleet refuses in one line. Through the first kubeconfig the same fleet file is checked as usual.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { writeFleetFile } from '../../src/config/fleet-config.js';
import { recordIdentities } from '../../src/config/fleet-identity.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import type { StatusJson } from '../../src/report/status.js';
import { readAuditEvents } from '../../src/sandbox/audit.js';
import { readState } from '../../src/sandbox/state.js';
import { runCli } from '../helpers/cli/cli.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-identity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const namespace = `fid-${Math.random().toString(36).slice(2, 7)}`;
const fleetFile = path.join(dir, 'fleet.yaml');
const env = { FLEETDECK_FLEET_FILE: fleetFile };

// The fleet as it is: recorded from the sandbox's kubeconfig.
const real = loadKubeconfig({ kubeconfig }).config;
writeFleetFile(
  fleetFile,
  { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace, workloads: [{ context: 'kind-workload-1', clusterName: 'w1' }] },
  {
    identities: recordIdentities(
      ['kind-cp', 'kind-workload-1'].map((context) => ({ context, kc: configForContext(real, context) })),
      kubeconfig,
    ),
  },
);

// Another kubeconfig, the same context names: its kind-cp is the cluster behind kind-workload-2.
const other = path.join(dir, 'other.kubeconfig');
const doc = parse(fs.readFileSync(kubeconfig, 'utf8')) as {
  contexts: { name: string; context: { cluster: string } }[];
};
const clusterOf = (ctx: string) => doc.contexts.find((c) => c.name === ctx)!.context.cluster;
const w2Cluster = clusterOf('kind-workload-2');
doc.contexts.find((c) => c.name === 'kind-cp')!.context.cluster = w2Cluster;
fs.writeFileSync(other, stringify(doc), { mode: 0o600 });
const serverOf = (ctx: string) => configForContext(real, ctx).getCurrentCluster()!.server;

describe('a fleet file and a kubeconfig whose contexts have the same names but other clusters', () => {
  it('status: one row naming both servers and the fix, the kubeconfig’s own contexts, and no request for the fleet in the other cluster', async () => {
    const w2 = readState(sandbox().dir)!.clusters.find((c) => c.context === 'kind-workload-2')!;
    const since = new Date();
    const r = await runCli(['status', '-o', 'json', '--kubeconfig', other], { env });
    const status = JSON.parse(r.stdout) as StatusJson;
    expectMatchesSchema(status, 'status');
    expect(r.code).toBe(1);
    expect(status.checklist.map((i) => [i.id, i.state])).toEqual([['fleet/elsewhere', 'fail']]);
    const row = status.checklist[0]!;
    expect(row.detail).toMatch(/^not checked: context kind-cp is another cluster than the fleet file recorded: /);
    expect(row.detail).toContain(`it recorded ${serverOf('kind-cp')} (CA `);
    expect(row.detail).toContain(`the kubeconfig says ${serverOf('kind-workload-2')} (CA `);
    expect(row.hint).toContain(`at the kubeconfig of the fleet recorded (${kubeconfig})`);
    expect(status.fleet?.problems?.['kind-cp']).toBeDefined();
    expect(status.contexts.map((c) => c.name).sort()).toEqual(doc.contexts.map((c) => c.name).sort());
    // Nothing of the fleet was asked of the other cluster: no request names the fleet's namespace.
    const asked = readAuditEvents(w2.auditLog, { since }).filter((e) => e.requestURI.includes(namespace));
    expect(asked.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });

  it('a command acting on the fleet refuses in one line, exit 2; so does an uninstall, before it removes anything', async () => {
    const backup = path.join(dir, 'backup.yaml');
    fs.writeFileSync(backup, 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}\n', { mode: 0o600 });
    for (const args of [['workloads'], ['uninstall', '--yes', '--no-backup'], ['restore', backup, '--dry-run']]) {
      const r = await runCli([...args, '--kubeconfig', other], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          /^fleetdeck: context kind-cp is another cluster than the fleet file recorded: .*; point KUBECONFIG \(or --kubeconfig\) at /,
        ),
      ]);
    }
  });

  it('through the kubeconfig it was recorded from, the same fleet file is the fleet, checked as usual', async () => {
    const r = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig], { env });
    const status = JSON.parse(r.stdout) as StatusJson;
    expect(status.fleet?.problems).toBeUndefined();
    expect(status.checklist.map((i) => i.id)).toContain('nova/apiserver');
    expect(status.checklist.find((i) => i.id === 'nova/apiserver')?.detail).toMatch(/not installed|namespace/);
  });
});

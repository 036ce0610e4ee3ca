import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { authorityFromPem, issueCertificate } from '../../src/kube/certs/pki.js';
import { readAuditEvents } from '../../src/sandbox/audit.js';
import { readState } from '../../src/sandbox/state.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

/*
 * A one-shot `fleetdeck status` reads what it prints once: one list per kind, no watch after
 * them. Seen in the API server's audit log, as a user of its own so that nothing else the test
 * run does is counted.
 */

const CONTEXT = 'kind-workload-2';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-oneshot-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A kubeconfig of the context as a user of its own (a client certificate of the cluster's CA, group system:masters). */
async function ownUserKubeconfig(user: string, auditLog: string): Promise<string> {
  const { config } = loadKubeconfig({ kubeconfig: sandbox().kubeconfig });
  const cluster = config.getCluster(CONTEXT)!;
  const pki = path.join(path.dirname(auditLog), 'pki');
  const ca = authorityFromPem(fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8'), fs.readFileSync(path.join(pki, 'ca.key'), 'utf8'));
  const cert = await issueCertificate(ca, { commonName: user, organizations: ['system:masters'], usage: 'client', days: 1 });
  const file = path.join(dir, 'kubeconfig');
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'c',
        cluster: { server: cluster.server, 'certificate-authority-data': b64(fs.readFileSync(path.join(pki, 'ca.crt'), 'utf8')) },
      },
    ],
    users: [{ name: 'u', user: { 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) } }],
    contexts: [{ name: CONTEXT, context: { cluster: 'c', user: 'u' } }],
    'current-context': CONTEXT,
  };
  fs.writeFileSync(file, stringify(doc), { mode: 0o600 });
  return file;
}

describe('one-shot status', () => {
  it('lists nodes, pods and events once each and opens no watch', async () => {
    const entry = readState(sandbox().dir)?.clusters.find((c) => c.context === CONTEXT);
    if (!entry) throw new Error(`no ${CONTEXT} in the sandbox`);
    const user = `fd-oneshot-${crypto.randomBytes(4).toString('hex')}`;
    const kubeconfig = await ownUserKubeconfig(user, entry.auditLog);
    const since = new Date(Date.now() - 1000);
    const r = await runCli(['status', '-o', 'json', '--kubeconfig', kubeconfig]);
    expect(r.stderr).toBe('');
    const lists = (events: ReturnType<typeof readAuditEvents>) =>
      events.filter((e) => e.verb === 'list').map((e) => e.objectRef?.resource ?? '');
    const events = await eventually('the lists in the audit log', () => {
      const seen = readAuditEvents(entry.auditLog, { since, user });
      const kinds = lists(seen);
      if (!['nodes', 'pods', 'events'].every((k) => kinds.includes(k))) throw new Error(`lists so far: ${kinds.join(', ')}`);
      return seen;
    });
    expect(lists(events).sort()).toEqual(['events', 'nodes', 'pods']);
    expect(events.filter((e) => e.verb === 'watch').map((e) => e.requestURI)).toEqual([]);
  });
});

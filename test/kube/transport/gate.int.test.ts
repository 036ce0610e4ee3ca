import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { ReadOnlyRefusal } from '../../../src/kube/transport/gate.js';
import { type AuditEvent, mutatingEvents, readAuditEvents } from '../../../src/sandbox/audit.js';
import { readState } from '../../../src/sandbox/state.js';
import { openSession } from '../../../src/session/session.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { ownUserKubeconfig } from '../../helpers/sandbox/own-user.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

/** This test's own user (see ownUserKubeconfig). */
const ADMIN = `fd-gate-${randomUUID().slice(0, 8)}`;

/** A backup file for `restore` (read before the refusal: it must be a good one). */
const BACKUP = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-gate-')), 'backup.yaml');
fs.writeFileSync(BACKUP, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: gate-restore\n');

/**
 * Every command that changes a cluster, run as a user would with --read-only. The others only
 * read (status, get, certs, logs, preflight, storage estimate, rollout list|watch, backup) or work
 * on local processes (sandbox). The dashboard's tabs: test/feeds/feeds.int.test.ts.
 */
const MUTATING: string[][] = [
  ['install', '--hosting-context', 'kind-cp', '--workload', 'kind-workload-1', '--yes'],
  ['uninstall', '--hosting-context', 'kind-cp', '--workload', 'kind-workload-1', '--yes'],
  ['restore', BACKUP, '--hosting-context', 'kind-cp', '--yes'],
  ['rollout', 'create', '--context', 'kind-workload-1', '--node', 'workload-1-node-2', '--yes'],
  ['rollout', 'create', '--context', 'kind-workload-1', '--node', 'workload-1-node-2', '--in-cluster', '--yes'],
  ['rollout', 'resume', 'rollout-x', '--context', 'kind-workload-1'],
  ['rollout', 'resume', 'rollout-x', '--context', 'kind-workload-1', '--in-cluster', '--yes'],
  ['rollout', 'cleanup', '--context', 'kind-workload-1', '--yes'],
  ['rollout', 'abort', 'rollout-x', '--context', 'kind-workload-1', '--yes'],
  ['approve', '--context', 'kind-workload-1', '--all-from', 'system:node:workload-1-node-2', '--yes'],
  ['approve', '--context', 'kind-workload-1', '--deny', 'csr-x', '--yes'],
  ['approve', '--context', 'kind-workload-1', '--auto', '--requester', 'r', '--signer', 'kubernetes.io/kubelet-serving', '--yes'],
];

function auditLogs(): string[] {
  const state = readState(sandbox().dir);
  if (!state) throw new Error('no sandbox state');
  return state.clusters.map((c) => c.auditLog);
}

function adminEvents(since: Date): AuditEvent[] {
  return auditLogs().flatMap((file) => readAuditEvents(file, { since, user: ADMIN }));
}

describe('--read-only: the write gate, seen from the API servers', () => {
  it('every mutating command is refused in one line (exit 2) and no API server saw a change', async () => {
    const kubeconfig = await ownUserKubeconfig(ADMIN, path.dirname(BACKUP));
    const since = new Date(Date.now() - 1000);
    for (const args of MUTATING) {
      const r = await runCli(['--read-only', '--kubeconfig', kubeconfig, ...args]);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^fleetdeck: .* is refused with --read-only/);
    }

    // In process, past the commands' own refusal: a request of a client of a read-only session is stopped at its gate.
    const session = openSession({ kubeconfig, readOnly: true }, { useFleetFile: false });
    const core = makeClient(session.kc('kind-workload-1'), CoreV1Api);
    await expect(
      core.patchNode({ name: 'workload-1-node-2', body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }),
    ).rejects.toBeInstanceOf(ReadOnlyRefusal);
    await expect(core.createNamespace({ body: { metadata: { name: 'gate-test' } } })).rejects.toBeInstanceOf(ReadOnlyRefusal);
    // Reads still work under --read-only.
    const marker = `audit-marker-${randomUUID()}`;
    const read = await core.readNamespacedConfigMap({ name: marker, namespace: 'default' }).catch((err: unknown) => err);
    expect(read).not.toBeInstanceOf(ReadOnlyRefusal);

    // The marker read is logged after every request above: once it is there, the log is complete.
    await eventually('the marker request in the audit log', () => adminEvents(since).some((e) => e.requestURI.includes(marker)));
    const events = adminEvents(since);
    expect(events.length).toBeGreaterThan(0);
    expect(mutatingEvents(events).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mutatingEvents, readAuditEvents } from '../../src/sandbox/audit.js';
import { ADMIN_USER, SIM_USER } from '../../src/sandbox/credentials.js';
import { readState } from '../../src/sandbox/state.js';
import { eventually } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const exec = promisify(execFile);
const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;
const CONTEXT = 'kind-workload-1';

function kubectl(...args: string[]): Promise<{ stdout: string }> {
  return exec('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--context', CONTEXT, ...args], { timeout: 60_000 });
}

function auditLogOf(context: string): string {
  const file = readState(sandboxDir)?.clusters.find((c) => c.context === context)?.auditLog;
  if (!file) throw new Error(`no audit log recorded for ${context}`);
  return file;
}

const unique = () => `audit-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe('the API audit log of the sandbox clusters', () => {
  it('is recorded in the state for every cluster, beside its files, and written', () => {
    const state = readState(sandboxDir)!;
    expect(state.clusters.map((c) => c.auditLog)).toEqual(
      state.clusters.map((c) => path.join(sandboxDir, 'clusters', c.name, 'audit.log')),
    );
    for (const c of state.clusters) expect(fs.statSync(c.auditLog).size).toBeGreaterThan(0);
  });

  it('has a ConfigMap created and deleted with kubectl as the admin user, apart from the sandbox’s own requests', async () => {
    const file = auditLogOf(CONTEXT);
    const name = unique();
    const since = new Date();
    await kubectl('create', 'configmap', name, '-n', 'default', '--from-literal=k=v');
    await kubectl('delete', 'configmap', name, '-n', 'default');
    const mine = await eventually('the create and the delete in the audit log', () => {
      const events = mutatingEvents(readAuditEvents(file, { since, user: ADMIN_USER })).filter(
        (e) => e.objectRef?.resource === 'configmaps' && e.objectRef.name === name,
      );
      return events.length >= 2 ? events : undefined;
    });
    expect(mine.map((e) => [e.verb, e.objectRef?.namespace, e.objectRef?.name, e.responseStatus?.code])).toEqual([
      ['create', 'default', name, 201],
      ['delete', 'default', name, 200],
    ]);
    for (const e of mine) {
      expect(e).toMatchObject({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', stage: 'ResponseComplete' });
      expect(e.user.groups).toContain('system:masters');
      expect(e.userAgent).toMatch(/^kubectl\//);
    }
    // Nothing else changed as the admin meanwhile: the sandbox's heartbeats and controllers are
    // its own user's (the simulated kubelet renews every node's Lease every 10 s).
    expect(mutatingEvents(readAuditEvents(file, { since, user: ADMIN_USER })).map((e) => e.auditID)).toEqual(mine.map((e) => e.auditID));
    const own = await eventually(
      'the sandbox’s own heartbeats',
      () => {
        const events = mutatingEvents(readAuditEvents(file, { since, user: SIM_USER })).filter((e) => e.objectRef?.resource === 'leases');
        return events.length > 0 ? events : undefined;
      },
      30_000,
      500,
    );
    expect(own.every((e) => e.user.username === SIM_USER)).toBe(true);
  });

  it('has dry runs and access reviews, which change nothing', async () => {
    const file = auditLogOf(CONTEXT);
    const name = unique();
    const since = new Date();
    await kubectl('create', 'configmap', name, '-n', 'default', '--from-literal=k=v', '--dry-run=server');
    expect((await kubectl('auth', 'can-i', 'create', 'configmaps', '-n', 'default')).stdout.trim()).toBe('yes');
    const asked = await eventually('the dry run and the review in the audit log', () => {
      const events = readAuditEvents(file, { since, user: ADMIN_USER });
      const dryRun = events.find(
        (e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps' && e.requestURI.includes('dryRun=All'),
      );
      const review = events.find((e) => e.verb === 'create' && e.objectRef?.resource === 'selfsubjectaccessreviews');
      return dryRun && review ? events : undefined;
    });
    expect(mutatingEvents(asked)).toEqual([]);
  });
});

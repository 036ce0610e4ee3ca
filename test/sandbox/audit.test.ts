import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditArgs, auditLogFile, auditPolicyFile, mutatingEvents, readAuditEvents, writeAuditPolicy } from '../../src/sandbox/audit.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-audit-'));
  dirs.push(d);
  return d;
}

let n = 0;
/** One line as kube-apiserver 1.20 writes it (level Metadata, JSON, audit.k8s.io/v1). */
function line(
  verb: string,
  resource: string,
  opts: { user?: string; uri?: string; at?: string; name?: string; group?: string; id?: string; stage?: string } = {},
): string {
  const at = opts.at ?? '2026-11-23T10:00:00.000000Z';
  const group = opts.group ?? '';
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: opts.id ?? `id-${++n}`,
    stage: opts.stage ?? 'ResponseComplete',
    requestURI: opts.uri ?? `/api/v1/namespaces/default/${resource}`,
    verb,
    user: { username: opts.user ?? 'fleetdeck-admin', groups: ['system:masters', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc',
    objectRef: { resource, namespace: 'default', name: opts.name, ...(group ? { apiGroup: group } : {}), apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: verb === 'create' ? 201 : 200 },
    requestReceivedTimestamp: at,
    stageTimestamp: at,
    annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
  });
}

describe('the audit policy and flags', () => {
  it('logs every request at Metadata once, to the cluster directory, in small rotated files', () => {
    const dir = tempDir();
    expect(writeAuditPolicy(dir)).toBe(path.join(dir, 'audit-policy.yaml'));
    const policy = fs.readFileSync(auditPolicyFile(dir), 'utf8');
    expect(policy).toContain('apiVersion: audit.k8s.io/v1');
    expect(policy).toMatch(/omitStages:\n\s+- RequestReceived/);
    expect(policy).toMatch(/rules:\n\s+- level: Metadata\n$/);
    expect(auditLogFile(dir)).toBe(path.join(dir, 'audit.log'));
    const args = auditArgs(dir);
    expect(args).toEqual(
      expect.arrayContaining([
        `--audit-policy-file=${path.join(dir, 'audit-policy.yaml')}`,
        `--audit-log-path=${path.join(dir, 'audit.log')}`,
        '--audit-log-format=json',
        '--audit-log-version=audit.k8s.io/v1',
      ]),
    );
    const maxsize = Number(args.find((a) => a.startsWith('--audit-log-maxsize='))?.split('=')[1]);
    const maxbackup = Number(args.find((a) => a.startsWith('--audit-log-maxbackup='))?.split('=')[1]);
    expect(maxsize).toBeGreaterThan(0);
    expect(maxsize).toBeLessThanOrEqual(50);
    expect(maxbackup).toBeGreaterThan(0);
    expect(maxbackup).toBeLessThanOrEqual(5);
  });
});

describe('reading the audit log', () => {
  it('keeps the events of one user since a time, skipping partial and foreign lines', () => {
    const file = path.join(tempDir(), 'audit.log');
    fs.writeFileSync(
      file,
      [
        line('create', 'configmaps', { name: 'early', at: '2026-11-23T09:59:59.999999Z' }),
        line('create', 'configmaps', { name: 'mine', at: '2026-11-23T10:00:00.000100Z' }),
        line('patch', 'nodes', { user: 'sandbox-sim', at: '2026-11-23T10:00:01.000000Z' }),
        line('get', 'configmaps', { name: 'mine', at: '2026-11-23T10:00:02.000000Z' }),
        // A user whose name contains the other's must not match.
        line('delete', 'configmaps', { user: 'fleetdeck-admin-2', name: 'x', at: '2026-11-23T10:00:03.000000Z' }),
        'not json at all',
        '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"cut', // still being written
      ].join('\n'),
    );
    const events = readAuditEvents(file, { since: new Date('2026-11-23T10:00:00.000Z'), user: 'fleetdeck-admin' });
    expect(events.map((e) => [e.verb, e.objectRef?.name])).toEqual([
      ['create', 'mine'],
      ['get', 'mine'],
    ]);
    expect(readAuditEvents(file)).toHaveLength(5);
    expect(readAuditEvents(file, { user: 'sandbox-sim' }).map((e) => e.objectRef?.resource)).toEqual(['nodes']);
    expect(readAuditEvents(path.join(tempDir(), 'none.log'))).toEqual([]);
  });

  it('reads the rotated files too, oldest first, and skips those older than `since`', () => {
    const dir = tempDir();
    const file = path.join(dir, 'audit.log');
    const old = path.join(dir, 'audit-2026-11-23T09-00-00.000.log');
    const rotated = path.join(dir, 'audit-2026-11-23T10-00-05.000.log');
    fs.writeFileSync(old, `${line('create', 'secrets', { name: 'ancient', at: '2026-11-23T08:00:00.000000Z' })}\n`);
    fs.utimesSync(old, new Date('2026-11-23T09:00:00Z'), new Date('2026-11-23T09:00:00Z'));
    fs.writeFileSync(rotated, `${line('create', 'configmaps', { name: 'a', at: '2026-11-23T10:00:01.000000Z' })}\n`);
    fs.utimesSync(rotated, new Date('2026-11-23T10:00:05Z'), new Date('2026-11-23T10:00:05Z'));
    fs.writeFileSync(file, `${line('delete', 'configmaps', { name: 'a', at: '2026-11-23T10:00:06.000000Z' })}\n`);
    fs.writeFileSync(path.join(dir, 'audit-policy.yaml'), 'not a log');
    expect(readAuditEvents(file).map((e) => e.objectRef?.name)).toEqual(['ancient', 'a', 'a']);
    expect(readAuditEvents(file, { since: new Date('2026-11-23T10:00:00Z') }).map((e) => `${e.verb} ${e.objectRef?.name}`)).toEqual([
      'create a',
      'delete a',
    ]);
  });
});

describe('mutating requests', () => {
  it('are creates, updates, patches and deletes, but not reviews, dry runs or reads', () => {
    const file = path.join(tempDir(), 'audit.log');
    fs.writeFileSync(
      file,
      [
        line('create', 'configmaps', { name: 'a' }),
        line('update', 'configmaps', { name: 'a' }),
        line('patch', 'nodes', { name: 'n1', uri: '/api/v1/nodes/n1' }),
        line('delete', 'configmaps', { name: 'a' }),
        line('deletecollection', 'pods', {}),
        line('get', 'configmaps', { name: 'a' }),
        line('list', 'pods', {}),
        line('watch', 'pods', { uri: '/api/v1/pods?watch=true' }),
        line('create', 'selfsubjectaccessreviews', {
          group: 'authorization.k8s.io',
          uri: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        }),
        line('create', 'selfsubjectrulesreviews', { group: 'authorization.k8s.io' }),
        line('create', 'subjectaccessreviews', { group: 'authorization.k8s.io' }),
        line('create', 'localsubjectaccessreviews', { group: 'authorization.k8s.io' }),
        line('create', 'tokenreviews', { group: 'authentication.k8s.io' }),
        line('create', 'configmaps', {
          name: 'dry',
          uri: '/api/v1/namespaces/default/configmaps?dryRun=All&fieldManager=kubectl-client-side-apply',
        }),
        line('patch', 'nodes', { name: 'n2', uri: '/api/v1/nodes/n2?fieldManager=x&dryRun=All' }),
        line('create', 'pods', { name: 'p', uri: '/api/v1/namespaces/default/pods/p/eviction', id: 'same' }),
        line('create', 'pods', { name: 'p', uri: '/api/v1/namespaces/default/pods/p/eviction', id: 'same', stage: 'ResponseStarted' }),
      ].join('\n'),
    );
    const mutating = mutatingEvents(readAuditEvents(file));
    expect(mutating.map((e) => `${e.verb} ${e.objectRef?.resource}${e.objectRef?.name ? `/${e.objectRef.name}` : ''}`)).toEqual([
      'create configmaps/a',
      'update configmaps/a',
      'patch nodes/n1',
      'delete configmaps/a',
      'deletecollection pods',
      'create pods/p',
    ]);
  });
});

import fs from 'node:fs';
import path from 'node:path';

/*
 * The API audit log of every sandbox cluster: each kube-apiserver logs every request (level
 * Metadata: who, what, when and the answer's code, never a body) as JSON lines of
 * audit.k8s.io/v1 Events to `<dir>/clusters/<name>/audit.log` (state.json: `clusters[i].auditLog`),
 * rotated at AUDIT_LOG_MAX_MB into AUDIT_LOG_BACKUPS old files beside it. People's requests carry
 * their user (`fleetdeck-admin`, `fleetdeck-viewer`); the sandbox's own components are `sandbox-sim`.
 */

export const AUDIT_LOG_MAX_MB = 20;
export const AUDIT_LOG_BACKUPS = 2;

/** Everything at Metadata, once per request (its RequestReceived stage left out). */
export const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - RequestReceived
rules:
  - level: Metadata
`;

export function auditPolicyFile(clusterDir: string): string {
  return path.join(clusterDir, 'audit-policy.yaml');
}

export function auditLogFile(clusterDir: string): string {
  return path.join(clusterDir, 'audit.log');
}

/** Writes the cluster's audit policy file; returns its path. */
export function writeAuditPolicy(clusterDir: string): string {
  const file = auditPolicyFile(clusterDir);
  fs.writeFileSync(file, AUDIT_POLICY, { mode: 0o644 });
  return file;
}

/** kube-apiserver flags that log to the cluster's audit log under its policy. */
export function auditArgs(clusterDir: string): string[] {
  return [
    `--audit-policy-file=${auditPolicyFile(clusterDir)}`,
    `--audit-log-path=${auditLogFile(clusterDir)}`,
    '--audit-log-format=json',
    '--audit-log-version=audit.k8s.io/v1',
    `--audit-log-maxsize=${AUDIT_LOG_MAX_MB}`,
    `--audit-log-maxbackup=${AUDIT_LOG_BACKUPS}`,
  ];
}

/** An audit.k8s.io/v1 Event, as far as the sandbox reads it. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username: string; uid?: string; groups?: string[] };
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  responseStatus?: { code?: number; status?: string; reason?: string; message?: string };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

export interface AuditFilter {
  /** Only requests received at or after this time. */
  since?: Date;
  /** Only requests of this user (`user.username`). */
  user?: string;
}

/** The rotated files beside `file` (`audit-<time>.log`), oldest first; only those written since `since`. */
function backups(file: string, since: Date | undefined): string[] {
  const dir = path.dirname(file);
  const ext = path.extname(file);
  const prefix = `${path.basename(file, ext)}-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith(ext));
  } catch {
    return [];
  }
  return names
    .sort()
    .map((n) => path.join(dir, n))
    .filter((f) => {
      if (!since) return true;
      const stat = fs.statSync(f, { throwIfNoEntry: false });
      return !!stat && stat.mtimeMs >= since.getTime();
    });
}

function readLines(file: string): string[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * The events of an audit log (and of its rotated files), oldest first, that match `filter`. A
 * line the API server is still writing, or any line that is not an event, is skipped.
 */
export function readAuditEvents(file: string, filter: AuditFilter = {}): AuditEvent[] {
  const since = filter.since?.getTime();
  const quotedUser = filter.user === undefined ? undefined : JSON.stringify(filter.user);
  const out: AuditEvent[] = [];
  for (const f of [...backups(file, filter.since), file]) {
    for (const line of readLines(f)) {
      // Cheap test first: a log holds thousands of lines of the sandbox's own heartbeats.
      if (!line || (quotedUser && !line.includes(quotedUser))) continue;
      let event: AuditEvent;
      try {
        event = JSON.parse(line) as AuditEvent;
      } catch {
        continue;
      }
      if (event?.kind !== 'Event' || typeof event.verb !== 'string') continue;
      if (filter.user !== undefined && event.user?.username !== filter.user) continue;
      if (since !== undefined && !(Date.parse(event.requestReceivedTimestamp) >= since)) continue;
      out.push(event);
    }
  }
  return out;
}

const MUTATING_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** Resources whose `create` only asks a question: nothing in the cluster changes. */
const REVIEW_RESOURCES = new Set([
  'selfsubjectaccessreviews',
  'selfsubjectrulesreviews',
  'subjectaccessreviews',
  'localsubjectaccessreviews',
  'tokenreviews',
]);

function isDryRun(requestURI: string): boolean {
  const query = requestURI.split('?')[1] ?? '';
  return new URLSearchParams(query).getAll('dryRun').includes('All');
}

/**
 * The requests among `events` that may change a cluster: create, update, patch, delete and
 * deletecollection, but not the reviews (access, rules and token reviews) and not dry runs
 * (`dryRun=All`). Refused ones count too (they tried). One event per request (auditID).
 */
export function mutatingEvents(events: readonly AuditEvent[]): AuditEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if (!MUTATING_VERBS.has(e.verb)) return false;
    if (REVIEW_RESOURCES.has(e.objectRef?.resource ?? '')) return false;
    if (isDryRun(e.requestURI ?? '')) return false;
    if (e.auditID && seen.has(e.auditID)) return false;
    if (e.auditID) seen.add(e.auditID);
    return true;
  });
}

/**
 * `fleetdeck logs`: containers' logs of one or several contexts merged into one stream, as
 * kubectl logs and stern read them. Read-only (GETs and watches). Exit codes: 0 read, 1 a
 * failure (a pod, workload or container not there, a stream the API refused, no pods matched),
 * 2 usage; a follow stopped by Ctrl-C, SIGTERM or SIGHUP ends with the signal's code (130, 143,
 * 129), a closed pipe with 141.
 */
import { fleetFilePath } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { parseSelector } from '../kube/api/selector.js';
import { collectLogs, type LogSink } from '../logs/collect.js';
import { followLogs, tooManyStreams } from '../logs/follow.js';
import { formatLine, type FormatOptions } from '../logs/format.js';
import { parseMaxRequests, parseSince, parseSinceTime, parseTail } from '../logs/options.js';
import type { LogRequest } from '../logs/request.js';
import { allSources, listScopes, nothingMatched, resolveScope, type LogScope, type PodSelection, type ScopePods } from '../logs/scope.js';
import { parseTarget } from '../logs/target.js';
import { colorEnabled, requireOutput, type GlobalOptions } from '../session/options.js';
import { requireCredentials, startSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';

export interface LogsOptions extends GlobalOptions {
  container?: string;
  allContainers?: boolean;
  follow?: boolean;
  previous?: boolean;
  since?: string;
  sinceTime?: string;
  tail?: string;
  timestamps?: boolean;
  selector?: string;
  agents?: boolean;
  controlPlane?: boolean;
  maxLogRequests?: string;
}

const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The flags checked and turned into a request (usage errors: one line, exit 2). */
export function logRequest(opts: LogsOptions): LogRequest {
  if (opts.container !== undefined && opts.allContainers) throw new UsageError('give -c NAME or --all-containers, not both');
  if (opts.since !== undefined && opts.sinceTime !== undefined) throw new UsageError('give --since or --since-time, not both');
  const req: LogRequest = {
    follow: !!opts.follow,
    previous: !!opts.previous,
    maxLogRequests: opts.maxLogRequests === undefined ? 50 : parseMaxRequests(opts.maxLogRequests),
  };
  if (opts.container !== undefined) req.container = opts.container;
  if (opts.allContainers) req.allContainers = true;
  if (opts.since !== undefined) req.sinceSeconds = parseSince(opts.since);
  if (opts.sinceTime !== undefined) req.sinceTime = parseSinceTime(opts.sinceTime);
  if (opts.tail !== undefined) req.tailLines = parseTail(opts.tail);
  return req;
}

/** What selects the pods: TARGET, -l, --agents or --control-plane (exactly one). */
function selection(target: string | undefined, opts: LogsOptions): PodSelection | 'agents' | 'control-plane' {
  const given = [
    target !== undefined && 'TARGET',
    opts.selector !== undefined && '-l',
    opts.agents && '--agents',
    opts.controlPlane && '--control-plane',
  ].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give one of TARGET, -l SELECTOR, --agents or --control-plane (got ${given.join(' and ')})`);
  // `logs --fleet agents` as it was written before --fleet named a recorded fleet.
  if (given.length === 0 && (opts.fleet === 'agents' || opts.fleet === 'control-plane')) {
    throw new UsageError(`--fleet names a recorded fleet; the logs of the fleet's ${opts.fleet}: fleetdeck logs --${opts.fleet}`);
  }
  if (opts.agents) return 'agents';
  if (opts.controlPlane) return 'control-plane';
  if (opts.selector !== undefined) {
    if (parseSelector(opts.selector).length === 0) throw new UsageError('-l needs a selector (e.g. -l app=web)');
    return { selector: opts.selector };
  }
  if (target === undefined) {
    throw new UsageError(
      'give a TARGET (pod/NAME, deployment/NAME, statefulset/NAME, daemonset/NAME), -l SELECTOR, --agents or --control-plane',
    );
  }
  return { target: parseTarget(target) };
}

/** The contexts, namespaces and pod selections of the run. */
function scopes(target: string | undefined, opts: LogsOptions): LogScope[] {
  const sel = selection(target, opts);
  if (opts.namespace !== undefined && !NAMESPACE.test(opts.namespace)) {
    throw new UsageError(`"${opts.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  }
  // -n/--namespace is the pods' namespace here, not the fleet's.
  const session = startSession({ ...opts, namespace: undefined });
  if (typeof sel === 'object') {
    return session.several('logs').map((c) => ({ ...c, namespace: opts.namespace ?? c.namespace, selection: sel }));
  }
  // The fleet: its namespace (-n/--namespace overrides it), the agents or the control plane.
  const fleet = session.fleet;
  if (!fleet) {
    throw new UserError(
      `--${sel}: no fleet defined; run fleetdeck install, or pass --hosting-context (with --context for each workload cluster), or write ${fleetFilePath()}`,
      2,
    );
  }
  const namespace = opts.namespace ?? fleet.namespace;
  const contexts = sel === 'agents' ? fleet.workloads.map((w) => w.context) : [fleet.hostingContext];
  if (contexts.length === 0) throw new UserError('--agents: the fleet has no workload contexts', 2);
  return contexts.map((context) => {
    const kc = session.kc(context);
    requireCredentials(context, kc);
    const selection: PodSelection = sel === 'agents' ? { target: { kind: 'deployment', name: 'nova-agent' } } : { controlPlane: true };
    return { context, kc, namespace, selection };
  });
}

function sink(fmt: FormatOptions): LogSink {
  return {
    line: (source, entry) => process.stdout.write(`${formatLine(source, entry.time, entry.text, fmt)}\n`),
    warn: (text) => process.stderr.write(`fleetdeck: ${text}\n`),
  };
}

/**
 * Every scope's pods. With several contexts, one that cannot be read (unreachable, no such
 * workload) is said in one line and the others are read; with one, or when none can be, its error ends the run.
 */
async function listAll(all: readonly LogScope[], warn: (text: string) => void): Promise<{ listed: ScopePods[]; failed: number }> {
  const settled = await Promise.allSettled(all.map(async (scope) => (await listScopes([await resolveScope(scope)]))[0]!));
  const listed = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (errors.length > 0 && listed.length === 0) throw errors[0];
  for (const err of errors) {
    if (!(err instanceof UserError)) throw err;
    warn(err.message);
  }
  return { listed, failed: errors.length };
}

export async function runLogs(target: string | undefined, opts: LogsOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const req = logRequest(opts);
  const fmt: FormatOptions = { output, timestamps: !!opts.timestamps, color: colorEnabled(opts) && !!process.stdout.isTTY };
  const out = sink(fmt);
  const { listed, failed } = await listAll(scopes(target, opts), out.warn);
  const resolved = listed.map((l) => l.scope);
  const sources = allSources(listed, req);
  const signal = runSignal();
  const atLeast = (code: number) => (failed > 0 ? Math.max(code, 1) : code);
  // --previous reads ended instances: nothing to follow.
  if (!req.follow || req.previous) {
    if (sources.length === 0) throw new UserError(nothingMatched(resolved));
    return atLeast(await collectLogs(sources, resolved, req, out, signal));
  }
  if (sources.length > req.maxLogRequests) throw new UsageError(tooManyStreams(sources.length, req.maxLogRequests));
  return atLeast(await followLogs(listed, req, out, signal));
}

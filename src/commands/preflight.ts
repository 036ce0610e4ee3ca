/**
 * `fleetdeck preflight`: checks on the host it runs on before it becomes a Kubernetes node, as a
 * checklist (√ ‼ ✗ with what was found and a hint). Exit 0 without failures, 1 with, 2 usage.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { formatChecklist } from '../checklist/checklist.js';
import type { ApiTarget } from '../kube/api/server-probe.js';
import { DEFAULT_MIN_CPUS, DEFAULT_MIN_MEMORY_GB, hasFailures, preflightChecks } from '../preflight/checks.js';
import { gatherFacts } from '../preflight/gather.js';
import type { CommandRunner } from '../preflight/read-commands.js';
import { requireOutput, type GlobalOptions } from '../session/options.js';
import { startSession } from '../session/session.js';
import { document } from '../output/format.js';

export interface PreflightCommandOptions extends GlobalOptions {
  server?: string;
  root?: string;
  minCpus?: string | number;
  minMemory?: string | number;
  /** Tests: the command runner (null: none). */
  runner?: CommandRunner | null;
}

function positiveNumber(flag: string, value: string | number | undefined, fallback: number, whole: boolean): number {
  if (value === undefined) return fallback;
  const v = String(value).trim();
  const ok = whole ? /^\d+$/.test(v) : /^\d+(\.\d+)?$/.test(v);
  if (!ok || Number(v) <= 0) throw new UsageError(`${flag} must be a ${whole ? 'whole ' : ''}number greater than 0 (got "${value}")`);
  return Number(v);
}

/** The API server to probe: --server, else --context's (or the current context's) server; none without either. */
export function apiTarget(opts: PreflightCommandOptions): ApiTarget | undefined {
  const given = (opts.context ?? []).filter(Boolean);
  if (given.length > 1) throw new UsageError(`preflight checks one API server: give --context once (got ${given.join(', ')})`);
  if (opts.server !== undefined) {
    if (given.length) throw new UsageError('give --server or --context, not both');
    let u: URL;
    try {
      u = new URL(opts.server);
    } catch {
      throw new UsageError(`--server "${opts.server}" is not a URL (e.g. https://10.0.0.1:6443)`);
    }
    if (u.protocol !== 'https:') throw new UsageError(`--server ${opts.server} must be an https:// URL`);
    return { url: opts.server, source: '--server' };
  }
  const one = startSession(opts).one('preflight checks one API server', { optional: true });
  if (!one) return undefined;
  return { url: one.kc.getCurrentCluster()?.server ?? '', source: `context ${one.context}`, kc: one.kc };
}

export async function runPreflight(opts: PreflightCommandOptions): Promise<number> {
  const minCpus = positiveNumber('--min-cpus', opts.minCpus, DEFAULT_MIN_CPUS, true);
  const minMemoryGB = positiveNumber('--min-memory', opts.minMemory, DEFAULT_MIN_MEMORY_GB, false);
  const root = path.resolve(opts.root ?? '/');
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`--root ${opts.root} is not a directory`);
  const api = apiTarget(opts);
  const facts = await gatherFacts({ root, api, ...(opts.runner !== undefined ? { runner: opts.runner } : {}) });
  const checks = preflightChecks(facts, { minCpus, minMemoryGB });
  const ok = !hasFailures(checks);
  const output = requireOutput(opts.output);
  if (output !== 'text') {
    process.stdout.write(`${document(output, { ok, checks })}\n`);
  } else {
    const ascii = opts.ascii === true;
    const host = root === '/' ? os.hostname() : root;
    const fails = checks.filter((c) => c.state === 'fail').length;
    const warns = checks.filter((c) => c.state === 'warn').length;
    const summary = fails
      ? `${fails} check${fails > 1 ? 's' : ''} failed${warns ? `, ${warns} warning${warns > 1 ? 's' : ''}` : ''}: fix them before this host becomes a node`
      : warns
        ? `Ready, with ${warns} warning${warns > 1 ? 's' : ''}`
        : 'Ready to become a node';
    process.stdout.write(`Preflight checks of ${host}\n${formatChecklist(checks, { ascii })}\n${summary}\n`);
  }
  return ok ? 0 : 1;
}

/**
 * Facts for `fleetdeck preflight`: read from a root directory (`--root`, default /, read-files.ts)
 * and, when the root is the real one, from commands (read-commands.ts); the API server probed
 * through src/kube/api/server-probe.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { probeApiServer, type ApiTarget } from '../kube/api/server-probe.js';
import type { PreflightFacts } from './facts.js';
import { parseCpuCount, parseMemTotalBytes, parseSwaps } from './parse.js';
import { execRunner, readService, readTimeSync, type CommandRunner } from './read-commands.js';
import { at, read, readBrNetfilter, readHostname, readOs, readPreviousInstall, readSockets, unknown } from './read-files.js';

export interface GatherOptions {
  root?: string;
  /** Default: execRunner when root is "/", else none (commands describe this host, not the root). */
  runner?: CommandRunner | null;
  api?: ApiTarget;
  timeoutMs?: number;
}

export async function gatherFacts(opts: GatherOptions = {}): Promise<PreflightFacts> {
  const root = path.resolve(opts.root ?? '/');
  const runner = opts.runner === undefined ? (root === '/' ? execRunner : null) : opts.runner;
  const cpuinfo = read(root, 'proc/cpuinfo');
  const meminfo = read(root, 'proc/meminfo');
  const swaps = read(root, 'proc/swaps');
  const modules = read(root, 'proc/modules');
  const ipf = read(root, 'proc/sys/net/ipv4/ip_forward');
  const resolv = read(root, 'etc/resolv.conf');
  const mem = meminfo !== undefined ? parseMemTotalBytes(meminfo) : undefined;
  const cpus = cpuinfo !== undefined ? parseCpuCount(cpuinfo) : 0;

  const [apiServer, timeSync, firewalld, fapolicyd] = await Promise.all([
    opts.api ? probeApiServer(opts.api, opts.timeoutMs) : Promise.resolve(undefined),
    readTimeSync(root, runner),
    readService(root, 'firewalld', runner),
    readService(root, 'fapolicyd', runner),
  ]);
  return {
    root,
    os: readOs(root),
    sockets: readSockets(root),
    ...(apiServer ? { apiServer } : {}),
    timeSync,
    previousInstall: readPreviousInstall(root),
    hostname: readHostname(root),
    services: { firewalld, fapolicyd },
    resolvConf:
      resolv !== undefined ? { text: resolv, path: at(root, 'etc/resolv.conf') } : unknown(`cannot read ${at(root, 'etc/resolv.conf')}`),
    swaps: swaps !== undefined ? { active: parseSwaps(swaps) } : unknown(`cannot read ${at(root, 'proc/swaps')}`),
    cpus:
      cpus > 0
        ? cpus
        : root === '/' && cpuinfo === undefined
          ? os.cpus().length || unknown('cannot read /proc/cpuinfo')
          : unknown(`no processor in ${at(root, 'proc/cpuinfo')}`),
    memoryBytes: mem ?? (root === '/' ? os.totalmem() : unknown(`no MemTotal in ${at(root, 'proc/meminfo')}`)),
    brNetfilter: readBrNetfilter(root, modules),
    ipForward:
      ipf !== undefined
        ? { value: ipf.trim(), path: at(root, 'proc/sys/net/ipv4/ip_forward') }
        : unknown(`cannot read ${at(root, 'proc/sys/net/ipv4/ip_forward')}`),
  };
}

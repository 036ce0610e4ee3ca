/**
 * `fleetdeck preflight`: pure decisions over facts gathered from a host (see gather.ts). Each
 * check turns facts into one checklist row: √ ok, ‼ warning, ✗ failure (blocks a node install),
 * • info (not checked here, and why). The host's own checks are check-host.ts, the network's
 * check-network.ts.
 */
import type { CheckItem } from '../checklist/checklist.js';
import {
  checkBrNetfilter,
  checkCpus,
  checkHostname,
  checkIpForward,
  checkMemory,
  checkOs,
  checkPreviousInstall,
  checkResolvRotate,
  checkService,
  checkSwap,
  checkTimeSync,
} from './check-host.js';
import { checkApiServer, checkClockSkew, checkDnsPort, checkRequiredPorts } from './check-network.js';
import type { PreflightFacts } from './facts.js';

export interface PreflightOptions {
  minCpus: number;
  /** Decimal gigabytes (10^9 bytes) of MemTotal. */
  minMemoryGB: number;
}

export const DEFAULT_MIN_CPUS = 2;
export const DEFAULT_MIN_MEMORY_GB = 2;
/** Every row, in the order printed. */
export function preflightChecks(f: PreflightFacts, opts: PreflightOptions): CheckItem[] {
  return [
    checkOs(f.os),
    checkDnsPort(f.sockets),
    checkApiServer(f.apiServer),
    checkTimeSync(f.timeSync),
    checkClockSkew(f.apiServer),
    checkPreviousInstall(f.previousInstall),
    checkHostname(f.hostname),
    checkService('firewalld', f.services.firewalld),
    checkService('fapolicyd', f.services.fapolicyd),
    checkResolvRotate(f.resolvConf),
    checkSwap(f.swaps),
    checkCpus(f.cpus, opts.minCpus),
    checkMemory(f.memoryBytes, opts.minMemoryGB),
    checkRequiredPorts(f.sockets),
    checkBrNetfilter(f.brNetfilter),
    checkIpForward(f.ipForward),
  ];
}

export const hasFailures = (items: readonly CheckItem[]) => items.some((i) => i.state === 'fail');

import net from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, statusCode } from '../../kube/transport/client.js';

/** What every simulated part needs: access to one cluster, its identity, a log sink. */
export interface SimContext {
  /** Credentials of a system:masters user for exactly one cluster (the sandbox's own, SIM_USER). */
  kc: KubeConfig;
  cluster: { name: string; index: number };
  /** One line per call; never multi-line, never key material. */
  log: (line: string) => void;
  /**
   * Given, pods whose containers are etcd or kube-apiserver images run the real binaries, the
   * nova-agent runs in process, Services resolve by name and load balancers forward (see
   * sim/real-pod.ts, sim/network.ts). Without it every pod is only reported as running.
   */
  runtime?: SandboxRuntime;
}

/** Sandbox-wide: load-balancer hostnames of every cluster → the loopback address serving them. */
export class HostnameDirectory {
  private readonly byOwner = new Map<string, Map<string, string>>();
  private readonly listeners = new Set<() => void>();

  /** Replaces the hostnames one owner (a cluster) publishes. */
  publish(owner: string, names: Map<string, string>): void {
    const before = this.byOwner.get(owner);
    if (before && before.size === names.size && [...names].every(([n, ip]) => before.get(n) === ip)) return;
    this.byOwner.set(owner, new Map(names));
    for (const l of this.listeners) l();
  }

  lookup(hostname: string): string | undefined {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    for (const names of this.byOwner.values()) {
      const ip = names.get(name);
      if (ip) return ip;
    }
    return undefined;
  }

  entries(): [string, string][] {
    return [...this.byOwner.values()].flatMap((m) => [...m]);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** What running pods for real needs from the sandbox. */
export interface SandboxRuntime {
  /** This cluster's directory in the sandbox: pods, volumes, logs and the hosts file go under it. */
  dir: string;
  /** The test bed's binaries run for etcd and kube-apiserver images. */
  binaries: { etcd: string; 'kube-apiserver': string };
  /** Records a pod's process (its PID) or forgets it (undefined), so `sandbox down` stops it. */
  recordProcess: (key: string, pid: number | undefined) => void;
  /** Load-balancer hostnames of all clusters (shared by every cluster of the sandbox). */
  hostnames: HostnameDirectory;
}

/** Field manager recorded on everything the simulators write. */
export const FIELD_MANAGER = 'fleetdeck-sandbox';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function isNotFound(err: unknown): boolean {
  return statusCode(err) === 404;
}

/** The promise's value, or undefined when it fails with 404. */
export async function ignoreNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function isConflict(err: unknown): boolean {
  return statusCode(err) === 409;
}

/** True when nothing listens on any of `ports` at `ip` (each is bound for a moment to find out). */
export async function portsFree(ip: string, ports: readonly number[]): Promise<boolean> {
  for (const port of new Set(ports)) {
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'EADDRINUSE' && err.code !== 'EACCES'));
      s.listen({ port, host: ip, exclusive: true }, () => s.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}

/**
 * Runs `fn` until it succeeds or `isStopped()` turns true, logging one line per failure
 * (the first and then every tenth) and backing off up to 10 s. Returns undefined if stopped.
 */
export async function retryUntil<T>(
  what: string,
  fn: () => Promise<T>,
  opts: { log: (line: string) => void; isStopped: () => boolean },
): Promise<T | undefined> {
  for (let attempt = 1; !opts.isStopped(); attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (opts.isStopped()) return undefined;
      if (attempt === 1 || attempt % 10 === 0) opts.log(`${what}: ${describeError(err)} (retrying)`);
      await sleep(Math.min(10_000, 250 * 2 ** Math.min(attempt, 6)));
    }
  }
  return undefined;
}

/** A watch error handler that logs the first failure and every fifth after it. */
export function watchErrorLogger(log: (line: string) => void, what: string) {
  return (message: string, info: { attempt: number }) => {
    if (info.attempt === 1 || info.attempt % 5 === 0) log(`watch ${what}: ${message} (retrying)`);
  };
}

/**
 * A pool of IPv4 addresses under a fixed prefix of two octets (`10.244` → 65,024 addresses)
 * or three (`127.3.1` → 254): hands out the lowest free one after the last handed out, takes
 * back released ones, and learns addresses already in use.
 */
export class AddressPool {
  private readonly prefix: string;
  private readonly size: number;
  private readonly used = new Set<string>();
  private next = 0;

  constructor(private readonly octets: readonly number[]) {
    if (octets.length !== 2 && octets.length !== 3) throw new Error('an address pool prefix has 2 or 3 octets');
    this.prefix = `${octets.join('.')}.`;
    this.size = octets.length === 3 ? 254 : 254 * 256;
  }

  private address(n: number): string {
    return this.octets.length === 3 ? `${this.prefix}${n + 1}` : `${this.prefix}${Math.floor(n / 254)}.${(n % 254) + 1}`;
  }

  contains(ip: string): boolean {
    return ip.startsWith(this.prefix);
  }

  markUsed(ip: string): void {
    if (this.contains(ip)) this.used.add(ip);
  }

  isUsed(ip: string): boolean {
    return this.used.has(ip);
  }

  /** The next free address, or undefined when the pool is exhausted. */
  allocate(): string | undefined {
    for (let i = 0; i < this.size; i++) {
      const ip = this.address((this.next + i) % this.size);
      if (!this.used.has(ip)) {
        this.used.add(ip);
        this.next = (this.next + i + 1) % this.size;
        return ip;
      }
    }
    return undefined;
  }

  /**
   * The next free address that `usable` accepts (e.g. nothing else on the machine listens on
   * the ports it will serve: another sandbox uses the same ranges), or undefined.
   */
  async allocateUsable(usable: (ip: string) => Promise<boolean>, attempts = 32): Promise<string | undefined> {
    const skipped: string[] = [];
    try {
      for (let i = 0; i < attempts; i++) {
        const ip = this.allocate();
        if (!ip) return undefined;
        if (await usable(ip)) return ip;
        skipped.push(ip); // held until the search ends, so it is not offered again
      }
      return undefined;
    } finally {
      for (const ip of skipped) this.release(ip);
    }
  }

  release(ip: string | undefined): void {
    if (ip) this.used.delete(ip);
  }
}

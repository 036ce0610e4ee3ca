import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, statusCode } from '../../kube/client.js';

/** What every simulated part needs: admin access to one cluster, its identity, a log sink. */
export interface SimContext {
  /** Admin credentials for exactly one cluster. */
  kc: KubeConfig;
  cluster: { name: string; index: number };
  /** One line per call; never multi-line, never key material. */
  log: (line: string) => void;
}

/** Field manager recorded on everything the simulators write. */
export const FIELD_MANAGER = 'fleetdeck-sandbox';

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function isNotFound(err: unknown): boolean {
  return statusCode(err) === 404;
}

export function isConflict(err: unknown): boolean {
  return statusCode(err) === 409;
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

  release(ip: string | undefined): void {
    if (ip) this.used.delete(ip);
  }
}

import { describe, expect, it } from 'vitest';
import { AddressPool, HostnameDirectory } from '../../../src/sandbox/sim/context.js';

describe('what the clusters of a sandbox share, and their address pools', () => {
  it('shares load-balancer hostnames between clusters', () => {
    const dir = new HostnameDirectory();
    let changes = 0;
    dir.onChange(() => changes++);
    dir.publish('cp', new Map([['apiserver.elotl.lb.sandbox.local', '127.5.0.1']]));
    dir.publish('cp', new Map([['apiserver.elotl.lb.sandbox.local', '127.5.0.1']]));
    expect(changes).toBe(1);
    expect(dir.lookup('APIServer.elotl.lb.sandbox.local.')).toBe('127.5.0.1');
    expect(dir.lookup('other.lb.sandbox.local')).toBeUndefined();
  });

  it('hands out addresses a check accepts, skipping the others', async () => {
    const pool = new AddressPool([127, 4, 0]);
    const taken = new Set(['127.4.0.1', '127.4.0.2']);
    expect(await pool.allocateUsable(async (ip) => !taken.has(ip))).toBe('127.4.0.3');
    expect(pool.isUsed('127.4.0.1')).toBe(false);
    expect(pool.isUsed('127.4.0.3')).toBe(true);
  });
});

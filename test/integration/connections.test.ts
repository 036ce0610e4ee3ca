import fs from 'node:fs';
import { CoreV1Api, VersionApi } from '@kubernetes/client-node';
import { describe, expect, inject, it } from 'vitest';
import { makeClient } from '../../src/kube/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/kubeconfig.js';

const kubeconfig = inject('kubeconfig');

/** Socket inodes this process holds open. */
function ownSockets(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/self/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Established TCP connections of this process to 127.0.0.1:<port>. */
function connectionsTo(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const mine = ownSockets();
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => {
      const f = l.trim().split(/\s+/);
      return f[2] === `0100007F:${hexPort}` && f[3] === '01' && mine.has(f[9] ?? '');
    }).length;
}

describe('connections', () => {
  it('requests of one context share one keep-alive connection (one TLS handshake)', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
    const port = Number(new URL(kc.getCurrentCluster()!.server).port);
    const version = makeClient(kc, VersionApi);
    const core = makeClient(kc, CoreV1Api);
    for (let i = 0; i < 5; i++) {
      await version.getCode();
      await core.listNode();
    }
    // Ten sequential requests through two API clients: one kept-alive connection, not ten.
    expect(connectionsTo(port)).toBe(1);
  });
});

import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthority, issueCertificate, type KeyMaterial } from '../../../src/kube/certs/pki.js';
import { nodeAddresses } from '../../../src/sandbox/credentials.js';
import { ContainerLog, podLogDir } from '../../../src/sandbox/sim/container-log.js';
import { KubeletServers, type LogTarget } from '../../../src/sandbox/sim/kubelet-server.js';

const CLUSTER_INDEX = 251;
const IP = `127.1.${CLUSTER_INDEX}.7`;
let dir: string;
let caPem: string;
let apiserver: KeyMaterial;
let viewer: KeyMaterial;
let stranger: KeyMaterial;
let servers: KubeletServers;
let other: KubeletServers;
let port: number;
let live: ContainerLog;

const pod = (name: string, status: Partial<V1ContainerStatus>): V1Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  spec: { nodeName: 'node-7', containers: [{ name: 'app', image: 'img' }] },
  status: { containerStatuses: [{ name: 'app', image: 'img', imageID: '', ready: true, restartCount: 0, ...status }] },
});
const pods: Record<string, V1Pod> = {
  web: pod('web', { state: { running: {} } }),
  pull: pod('pull', { state: { waiting: { reason: 'ImagePullBackOff' } } }),
};
const lookup = (ns: string, name: string): LogTarget | undefined => {
  const p = ns === 'ns' ? pods[name] : undefined;
  return p ? { pod: p, status: (c) => p.status?.containerStatuses?.find((s) => s.name === c) } : undefined;
};

function get(url: string, as: KeyMaterial | undefined, onData?: (text: string) => void): Promise<{ code: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(`https://${IP}:${port}${url}`, { ca: caPem, cert: as?.certPem, key: as?.keyPem, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        onData?.(body);
      });
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubelet-server-'));
  const ca = await createAuthority('test-ca', 1);
  caPem = ca.certPem;
  const serving = await issueCertificate(ca, { commonName: 'kubelet', hosts: nodeAddresses(CLUSTER_INDEX), usage: 'server', days: 1 });
  apiserver = await issueCertificate(ca, {
    commonName: 'kube-apiserver-kubelet-client',
    organizations: ['system:masters'],
    usage: 'client',
    days: 1,
  });
  viewer = await issueCertificate(ca, { commonName: 'viewer', usage: 'client', days: 1 });
  const otherCa = await createAuthority('other-ca', 1);
  stranger = await issueCertificate(otherCa, { commonName: 'x', organizations: ['system:masters'], usage: 'client', days: 1 });
  const tls = { certPem: serving.certPem, keyPem: serving.keyPem, caPem };
  const logs: string[] = [];
  // Another sandbox's kubelet on the same address first: ours must move to another port.
  other = new KubeletServers({ runtimeDir: dir, tls, lookup: () => undefined, log: () => {} });
  const taken = await other.open('node-7', IP);
  servers = new KubeletServers({ runtimeDir: dir, tls, lookup, log: (l) => logs.push(l) });
  port = await servers.open('node-7', IP);
  expect(port).not.toBe(taken);
  const web = podLogDir(dir, 'ns', 'web', 'uid-web');
  live = new ContainerLog(web, 'app', 0);
  live.write('stdout', 'starting\nready');
});

afterAll(async () => {
  live?.close();
  await servers?.closeAll();
  await other?.closeAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the simulated kubelet API', () => {
  it('serves a container log to the API server’s client certificate', async () => {
    expect(await get('/containerLogs/ns/web/app', apiserver)).toEqual({ code: 200, body: 'starting\nready\n' });
    const stamped = await get('/containerLogs/ns/web/app?timestamps=true&tailLines=1', apiserver);
    expect(stamped.body).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z ready\n$/);
  });

  it('follows new lines until the instance ends', async () => {
    let seen = '';
    const done = get('/containerLogs/ns/web/app?follow=true', apiserver, (text) => {
      if (!seen && text.includes('ready\n')) live.write('stdout', 'more');
      seen = text;
      if (text.includes('more\n')) live.close();
    });
    const res = await done;
    expect(res.body).toBe('starting\nready\nmore\n');
  });

  it('refuses clients without a certificate of the cluster CA, and users other than system:masters', async () => {
    expect((await get('/containerLogs/ns/web/app', undefined)).code).toBe(401);
    expect((await get('/containerLogs/ns/web/app', stranger)).code).toBe(401);
    const forbidden = await get('/containerLogs/ns/web/app', viewer);
    expect(forbidden.code).toBe(403);
    expect(forbidden.body).toContain('user=viewer');
  });

  it('answers as the kubelet for unknown pods and containers waiting for their image', async () => {
    expect(await get('/containerLogs/ns/nosuch/app', apiserver)).toEqual({ code: 404, body: 'pod "nosuch" does not exist' });
    expect(await get('/containerLogs/ns/pull/app', apiserver)).toEqual({
      code: 400,
      body: 'container "app" in pod "pull" is waiting to start: trying and failing to pull image',
    });
    expect((await get('/containerLogs/ns/web/app?previous=true', apiserver)).body).toBe(
      'previous terminated container "app" in pod "web" not found',
    );
  });
});

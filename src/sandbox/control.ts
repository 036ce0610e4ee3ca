import fs from 'node:fs';
import http from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/client.js';
import { apiserverReady, waitFor, type ClusterProcesses } from './cluster.js';
import type { ClusterRecord } from './state.js';

/** The supervisor's control socket: the outage drills of `sandbox stop-apiserver` and `start-apiserver`. */

/** A cluster the supervisor runs, as the control socket needs it. */
export interface ControlledCluster {
  spec: { context: string };
  record: ClusterRecord;
  procs: ClusterProcesses;
  /** The sandbox's own access to the cluster (to wait for its API server). */
  kc: KubeConfig;
}

type Reply = (code: number, message: string) => void;

function stopApiserver(c: ControlledCluster, save: () => void, log: (l: string) => void, reply: Reply): void {
  c.record.apiserver = 'stopped';
  save();
  log(`${c.spec.context}: stopping kube-apiserver on request`);
  c.procs.stopRole('kube-apiserver').then(
    () => reply(200, `${c.spec.context}: kube-apiserver stopped`),
    (err: unknown) => reply(500, describeError(err)),
  );
}

function startApiserver(c: ControlledCluster, save: () => void, log: (l: string) => void, reply: Reply): void {
  if (c.procs.running('kube-apiserver')) {
    reply(200, `${c.spec.context}: kube-apiserver already running`);
    return;
  }
  log(`${c.spec.context}: starting kube-apiserver on request`);
  c.procs.spawn('kube-apiserver');
  waitFor(`${c.spec.context} kube-apiserver`, () => apiserverReady(c.kc), 90_000).then(
    () => {
      c.record.apiserver = 'running';
      save();
      reply(200, `${c.spec.context}: kube-apiserver ready`);
    },
    (err: unknown) => reply(500, describeError(err)),
  );
}

/** HTTP on a unix socket: POST /apiserver/stop?context=C and /apiserver/start?context=C. */
export async function serveControl(
  socket: string,
  clusters: readonly ControlledCluster[],
  save: () => void,
  log: (l: string) => void,
): Promise<http.Server> {
  fs.rmSync(socket, { force: true });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const reply: Reply = (code, message) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message }));
    };
    const c = clusters.find((x) => x.spec.context === url.searchParams.get('context'));
    if (req.method !== 'POST') return reply(405, 'use POST');
    if (!c) return reply(404, `no sandbox cluster has context "${url.searchParams.get('context')}"`);
    if (url.pathname === '/apiserver/stop') return stopApiserver(c, save, log, reply);
    if (url.pathname === '/apiserver/start') return startApiserver(c, save, log, reply);
    reply(404, `unknown path ${url.pathname}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  return server;
}

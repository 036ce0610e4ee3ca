import fs from 'node:fs';
import http from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/transport/client.js';
import { apiserverReady, etcdHealthy, waitFor, type ClusterProcesses, type Role } from './cluster.js';
import type { ClusterRecord, MonitoringRecord } from './state.js';

/**
 * The supervisor's control socket: the outage drills of `sandbox stop-apiserver` /
 * `start-apiserver` and `sandbox stop-etcd` / `start-etcd`, and `sandbox monitoring start|stop`.
 */

/** A cluster the supervisor runs, as the control socket needs it. */
export interface ControlledCluster {
  spec: { context: string };
  record: ClusterRecord;
  procs: ClusterProcesses;
  /** The sandbox's own access to the cluster (to wait for its API server). */
  kc: KubeConfig;
  /** etcd's client port (to wait for its health). */
  etcdPort: number;
}

/** The processes a drill may stop and start, by the name in the socket's paths. */
export type ControlledRole = 'apiserver' | 'etcd';

const ROLES: Record<ControlledRole, Role> = { apiserver: 'kube-apiserver', etcd: 'etcd' };

type Reply = (code: number, message: string, extra?: Record<string, unknown>) => void;

/** The monitoring as the socket starts and stops it (see monitoring.ts). */
export interface ControlledMonitoring {
  start(): Promise<MonitoringRecord>;
  stop(): Promise<void>;
}

/** POST /monitoring/<start|stop>: answers with the monitoring's record once it runs (or once stopped). */
function controlMonitoring(monitoring: ControlledMonitoring, action: string | undefined, reply: Reply): void {
  if (action === 'start') {
    monitoring.start().then(
      (record) =>
        reply(200, `monitoring ready: Prometheus ${record.prometheus.url}, Alertmanager ${record.alertmanager.url}`, {
          monitoring: record,
        }),
      (err: unknown) => reply(500, `monitoring did not start: ${describeError(err)}`),
    );
  } else if (action === 'stop') {
    monitoring.stop().then(
      () => reply(200, 'monitoring stopped'),
      (err: unknown) => reply(500, describeError(err)),
    );
  } else {
    reply(404, `unknown path /monitoring/${action ?? ''}`);
  }
}

interface Drill {
  c: ControlledCluster;
  role: ControlledRole;
  save: () => void;
  log: (l: string) => void;
  reply: Reply;
}

function setRecorded(d: Drill, value: 'running' | 'stopped'): void {
  if (d.role === 'apiserver') d.c.record.apiserver = value;
  else d.c.record.etcd = value;
  d.save();
}

function stopRole({ c, role, save, log, reply }: Drill): void {
  const name = ROLES[role];
  setRecorded({ c, role, save, log, reply }, 'stopped');
  log(`${c.spec.context}: stopping ${name} on request`);
  // A drill, not a shutdown: the process gets 2 s to exit on SIGTERM, then SIGKILL.
  c.procs.stopRole(name, 2000).then(
    () => reply(200, `${c.spec.context}: ${name} stopped`),
    (err: unknown) => reply(500, describeError(err)),
  );
}

function startRole(d: Drill): void {
  const { c, role, log, reply } = d;
  const name = ROLES[role];
  if (c.procs.running(name)) {
    reply(200, `${c.spec.context}: ${name} already running`);
    return;
  }
  log(`${c.spec.context}: starting ${name} on request`);
  c.procs.spawn(name);
  const ready = role === 'apiserver' ? () => apiserverReady(c.kc) : () => etcdHealthy(c.etcdPort);
  waitFor(`${c.spec.context} ${name}`, ready, 90_000).then(
    () => {
      setRecorded(d, 'running');
      reply(200, `${c.spec.context}: ${name} ready`);
    },
    (err: unknown) => reply(500, describeError(err)),
  );
}

/** HTTP on a unix socket: POST /<apiserver|etcd>/<stop|start>?context=C, POST /monitoring/<start|stop>. */
export async function serveControl(
  socket: string,
  clusters: readonly ControlledCluster[],
  save: () => void,
  log: (l: string) => void,
  monitoring?: ControlledMonitoring,
): Promise<http.Server> {
  fs.rmSync(socket, { force: true });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const reply: Reply = (code, message, extra) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message, ...extra }));
    };
    const c = clusters.find((x) => x.spec.context === url.searchParams.get('context'));
    if (req.method !== 'POST') return reply(405, 'use POST');
    const [, first, second] = url.pathname.split('/');
    if (first === 'monitoring' && monitoring) return controlMonitoring(monitoring, second, reply);
    if (!c) return reply(404, `no sandbox cluster has context "${url.searchParams.get('context')}"`);
    const [, role, action] = url.pathname.split('/');
    if (role !== 'apiserver' && role !== 'etcd') return reply(404, `unknown path ${url.pathname}`);
    const drill: Drill = { c, role, save, log, reply };
    if (action === 'stop') return stopRole(drill);
    if (action === 'start') return startRole(drill);
    reply(404, `unknown path ${url.pathname}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  return server;
}

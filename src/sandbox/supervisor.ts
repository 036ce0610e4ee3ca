import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { describeError, makeClient, statusCode } from '../kube/client.js';
import type { Binaries } from './binaries.js';
import {
  ADMIN_USER,
  VIEWER_ROLE,
  VIEWER_USER,
  ClusterProcesses,
  accessConfig,
  apiserverReady,
  b64,
  etcdHealthy,
  prepareClusterFiles,
  waitFor,
  type ClusterAccess,
  type ClusterSpec,
} from './cluster.js';
import { HostnameDirectory, startSimulators, type SandboxRuntime, type Simulators } from './sim/index.js';
import { writeState, type ClusterRecord, type SandboxState } from './state.js';

export interface SuperviseOptions {
  dir: string;
  workloads: number;
  nodes: number;
  binaries: Binaries;
  /** Annotate every simulated node for replacement once cordoned and drained (`sandbox up --replace-drained`). */
  replaceDrained?: boolean;
}

export function clusterNames(workloads: number): { name: string; context: string }[] {
  return [
    { name: 'cp', context: 'kind-cp' },
    ...Array.from({ length: workloads }, (_, i) => ({ name: `workload-${i + 1}`, context: `kind-workload-${i + 1}` })),
  ];
}

/** Reserve `n` distinct free loopback ports (all held open together, then released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const s = net.createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

const READ_ONLY_RULES = [
  {
    apiGroups: [''],
    resources: [
      'nodes',
      'pods',
      'pods/log',
      'services',
      'endpoints',
      'events',
      'namespaces',
      'configmaps',
      'persistentvolumes',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'serviceaccounts',
      'limitranges',
      'resourcequotas',
    ],
    verbs: ['get', 'list', 'watch'],
  },
  {
    apiGroups: [
      'apps',
      'batch',
      'policy',
      'autoscaling',
      'storage.k8s.io',
      'networking.k8s.io',
      'apiextensions.k8s.io',
      'certificates.k8s.io',
      'coordination.k8s.io',
      'discovery.k8s.io',
      'events.k8s.io',
      'scheduling.k8s.io',
      'node.k8s.io',
      'rbac.authorization.k8s.io',
      // The simulated OpenEBS objects (sim/storage-objects.ts).
      'local.openebs.io',
      'openebs.io',
    ],
    resources: ['*'],
    verbs: ['get', 'list', 'watch'],
  },
];

/** The read-only user: get/list/watch on everything but Secrets. Idempotent. */
async function ensureReadOnlyRole(kc: KubeConfig): Promise<void> {
  const rbac = makeClient(kc, RbacAuthorizationV1Api);
  const ignoreExists = (err: unknown) => {
    if (statusCode(err) !== 409) throw err;
  };
  await rbac.createClusterRole({ body: { metadata: { name: VIEWER_ROLE }, rules: READ_ONLY_RULES } }).catch(ignoreExists);
  await rbac
    .createClusterRoleBinding({
      body: {
        metadata: { name: VIEWER_ROLE },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: VIEWER_ROLE },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: VIEWER_USER }],
      },
    })
    .catch(ignoreExists);
}

/** A kubeconfig with one context per cluster; `as` picks the admin or the read-only user. */
export function kubeconfigYaml(clusters: { spec: ClusterSpec; access: ClusterAccess }[], as: 'admin' | 'viewer'): string {
  const users = clusters.flatMap(({ spec, access }) => [
    { name: `${spec.context}-admin`, user: { 'client-certificate-data': b64(access.admin.certPem), 'client-key-data': b64(access.admin.keyPem) } },
    { name: `${spec.context}-viewer`, user: { 'client-certificate-data': b64(access.viewer.certPem), 'client-key-data': b64(access.viewer.keyPem) } },
  ]);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: clusters.map(({ spec, access }) => ({
      name: spec.context,
      cluster: { server: access.server, 'certificate-authority-data': b64(access.caPem) },
    })),
    users,
    contexts: clusters.map(({ spec }) => ({ name: spec.context, context: { cluster: spec.context, user: `${spec.context}-${as}` } })),
    'current-context': clusters[0]?.spec.context ?? '',
  });
}

interface RunningCluster {
  spec: ClusterSpec;
  access: ClusterAccess;
  procs: ClusterProcesses;
  record: ClusterRecord;
  kc: KubeConfig;
  sims?: Simulators;
}

/**
 * The background process behind `fleetdeck sandbox up`: runs every cluster's processes as
 * its children, the simulated kubelets, load balancer and storage provisioner, and a control
 * socket; records everything in state.json; stops it all on SIGTERM/SIGINT.
 */
export async function supervise(opts: SuperviseOptions): Promise<number> {
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const names = clusterNames(opts.workloads);
  const ports = await freePorts(names.length * 3);
  const state: SandboxState = {
    version: 1,
    dir: opts.dir,
    supervisorPid: process.pid,
    phase: 'starting',
    progress: 'starting clusters',
    startedAt: new Date().toISOString(),
    options: { workloads: opts.workloads, nodes: opts.nodes },
    kubeconfig: path.join(opts.dir, 'kubeconfig'),
    readOnlyKubeconfig: path.join(opts.dir, 'kubeconfig.read-only'),
    controlSocket: path.join(opts.dir, 'control.sock'),
    clusters: names.map((n, index) => ({
      ...n,
      index,
      ports: { etcdClient: ports[index * 3]!, etcdPeer: ports[index * 3 + 1]!, apiserver: ports[index * 3 + 2]! },
      pids: {},
      apiserver: 'running',
    })),
  };
  const save = () => {
    try {
      writeState(state);
    } catch (err) {
      log(`cannot write the state: ${describeError(err)}`);
    }
  };
  save();
  // Load-balancer hostnames of every cluster, resolvable from all of them.
  const hostnames = new HostnameDirectory();

  let stopping = false;
  const running: RunningCluster[] = [];
  const abort = new AbortController();

  const shutdown = async (code: number): Promise<number> => {
    if (stopping) return code;
    stopping = true;
    abort.abort();
    if (state.phase !== 'failed') state.phase = 'stopping';
    save();
    await Promise.allSettled(running.map((c) => c.sims?.stop()));
    await Promise.allSettled(running.map((c) => c.procs.stopAll()));
    server?.close();
    fs.rmSync(state.controlSocket, { force: true });
    log(`stopped (exit ${code})`);
    return code;
  };

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((r) => (resolveExit = r));
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(sig, () => {
      log(`received ${sig}`);
      void shutdown(0).then(resolveExit);
    });
  }

  let server: http.Server | undefined;
  try {
    await Promise.all(
      state.clusters.map(async (record) => {
        const spec: ClusterSpec = {
          name: record.name,
          context: record.context,
          index: record.index,
          dir: path.join(opts.dir, 'clusters', record.name),
          ports: record.ports,
        };
        fs.mkdirSync(spec.dir, { recursive: true });
        const access = await prepareClusterFiles(spec);
        const procs = new ClusterProcesses(spec, opts.binaries, (role, pid) => {
          if (pid) record.pids[role] = pid;
          else delete record.pids[role];
          if (role === 'kube-apiserver' && !pid && record.apiserver === 'running' && !stopping) record.apiserver = 'exited';
          save();
        });
        const cluster: RunningCluster = { spec, access, procs, record, kc: accessConfig(spec, access, 'admin') };
        running.push(cluster);
        const step = (what: string) => {
          log(`${spec.context}: ${what}`);
          state.progress = `${spec.context}: ${what}`;
          save();
        };
        step('starting etcd');
        procs.spawn('etcd');
        await waitFor(`${spec.context} etcd`, () => etcdHealthy(spec.ports.etcdClient), 60_000, abort.signal);
        step('starting kube-apiserver');
        procs.spawn('kube-apiserver');
        await waitFor(`${spec.context} kube-apiserver`, () => apiserverReady(cluster.kc), 90_000, abort.signal);
        step('starting controller manager and scheduler');
        procs.spawn('kube-controller-manager');
        procs.spawn('kube-scheduler');
        await ensureReadOnlyRole(cluster.kc);
        step(`registering ${opts.nodes} simulated nodes${opts.replaceDrained ? ' (replaced when drained)' : ''}`);
        const runtime: SandboxRuntime = {
          dir: spec.dir,
          binaries: { etcd: opts.binaries.etcd, 'kube-apiserver': opts.binaries['kube-apiserver'] },
          hostnames,
          // Saved at once (synchronously): a supervisor killed right after a start still leaves
          // the PID for `sandbox down`.
          recordProcess: (key, pid) => {
            const procs = (record.podProcesses ??= {});
            if (pid) procs[key] = pid;
            else delete procs[key];
            save();
          },
        };
        cluster.sims = await startSimulators(
          { kc: cluster.kc, cluster: { name: spec.name, index: spec.index }, log: (l) => log(`${spec.context}: ${l}`), runtime },
          { nodes: opts.nodes, replaceDrained: opts.replaceDrained ?? false },
        );
        step('ready');
      }),
    );
    if (stopping) return await exited;
    const ordered = [...running].sort((a, b) => a.spec.index - b.spec.index);
    fs.writeFileSync(state.kubeconfig, kubeconfigYaml(ordered, 'admin'), { mode: 0o600 });
    fs.writeFileSync(state.readOnlyKubeconfig, kubeconfigYaml(ordered, 'viewer'), { mode: 0o600 });
    server = await serveControl(state.controlSocket, running, save, log);
    state.phase = 'ready';
    state.progress = undefined;
    save();
    log('sandbox ready');
  } catch (err) {
    if (stopping) return await exited;
    state.phase = 'failed';
    state.error = describeError(err);
    log(`failed: ${state.error}`);
    save();
    return shutdown(1);
  }
  return exited;
}

/** HTTP on a unix socket: POST /apiserver/stop?context=C and /apiserver/start?context=C. */
async function serveControl(
  socket: string,
  clusters: RunningCluster[],
  save: () => void,
  log: (l: string) => void,
): Promise<http.Server> {
  fs.rmSync(socket, { force: true });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const reply = (code: number, message: string) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message }));
    };
    const c = clusters.find((x) => x.spec.context === url.searchParams.get('context'));
    if (req.method !== 'POST') return reply(405, 'use POST');
    if (!c) return reply(404, `no sandbox cluster has context "${url.searchParams.get('context')}"`);
    if (url.pathname === '/apiserver/stop') {
      c.record.apiserver = 'stopped';
      save();
      log(`${c.spec.context}: stopping kube-apiserver on request`);
      c.procs.stopRole('kube-apiserver').then(
        () => reply(200, `${c.spec.context}: kube-apiserver stopped`),
        (err: unknown) => reply(500, describeError(err)),
      );
      return;
    }
    if (url.pathname === '/apiserver/start') {
      if (c.procs.running('kube-apiserver')) return reply(200, `${c.spec.context}: kube-apiserver already running`);
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
      return;
    }
    reply(404, `unknown path ${url.pathname}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  fs.chmodSync(socket, 0o600);
  return server;
}

export { ADMIN_USER };

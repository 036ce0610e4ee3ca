import fs from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/transport/client.js';
import { auditLogFile, writeAuditPolicy } from './audit.js';
import type { Binaries } from './binaries.js';
import { ClusterProcesses, apiserverReady, defaultTokenReady, etcdHealthy, waitFor, type ClusterSpec } from './cluster.js';
import { serveControl } from './control.js';
import { accessConfig, prepareClusterFiles, type ClusterAccess } from './credentials.js';
import { ensureReadOnlyRole, kubeconfigYaml } from './kubeconfig.js';
import { SandboxMonitoring } from './monitoring.js';
import { HostnameDirectory, startSimulators, type SandboxRuntime, type Simulators } from './sim/index.js';
import { writeState, type ClusterRecord, type SandboxState } from './state.js';

export interface SuperviseOptions {
  dir: string;
  workloads: number;
  nodes: number;
  binaries: Binaries;
  /** Annotate every simulated node for replacement once cordoned and drained (default; off with `sandbox up --no-replace`). */
  replaceDrained?: boolean;
  /** Start Prometheus and Alertmanager with the clusters (`sandbox up --with-monitoring`; see monitoring.ts). */
  withMonitoring?: boolean;
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

interface RunningCluster {
  spec: ClusterSpec;
  access: ClusterAccess;
  procs: ClusterProcesses;
  record: ClusterRecord;
  /** The sandbox's own user (see SIM_USER): its probes, set-up and simulators. */
  kc: KubeConfig;
  sims?: Simulators;
  /** etcd's client port (the control socket waits for its health). */
  etcdPort: number;
}

/** state.json as the supervisor starts: every cluster with its ports and audit log, nothing running yet. */
function initialState(opts: SuperviseOptions, ports: number[]): SandboxState {
  return {
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
    clusters: clusterNames(opts.workloads).map((n, index) => ({
      ...n,
      index,
      ports: { etcdClient: ports[index * 3]!, etcdPeer: ports[index * 3 + 1]!, apiserver: ports[index * 3 + 2]! },
      auditLog: auditLogFile(clusterDir(opts.dir, n.name)),
      pids: {},
      apiserver: 'running',
    })),
  };
}

function clusterDir(dir: string, name: string): string {
  return path.join(dir, 'clusters', name);
}

/**
 * The background process behind `fleetdeck sandbox up`: runs every cluster's processes as
 * its children, the simulated kubelets, load balancer and storage provisioner, and a control
 * socket; records everything in state.json; stops it all on SIGTERM/SIGINT.
 */
export async function supervise(opts: SuperviseOptions): Promise<number> {
  const ports = await freePorts((opts.workloads + 1) * 3);
  return new Supervisor(opts, initialState(opts, ports)).run();
}

class Supervisor {
  private readonly running: RunningCluster[] = [];
  /** Load-balancer hostnames of every cluster, resolvable from all of them. */
  private readonly hostnames = new HostnameDirectory();
  private readonly abort = new AbortController();
  private stopping = false;
  private server: http.Server | undefined;
  private readonly monitoring: SandboxMonitoring;
  private resolveExit: (code: number) => void = () => {};
  private readonly exited = new Promise<number>((resolve) => {
    this.resolveExit = resolve;
  });

  constructor(
    private readonly opts: SuperviseOptions,
    private readonly state: SandboxState,
  ) {
    this.monitoring = new SandboxMonitoring({
      dir: opts.dir,
      state,
      save: () => this.save(),
      log: (l) => this.log(l),
      clusters: () => [...this.running].sort((a, b) => a.spec.index - b.spec.index),
      signal: this.abort.signal,
    });
  }

  private readonly log = (line: string): void => {
    process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  };

  private readonly save = (): void => {
    try {
      writeState(this.state);
    } catch (err) {
      this.log(`cannot write the state: ${describeError(err)}`);
    }
  };

  async run(): Promise<number> {
    this.save();
    for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
      process.on(sig, () => {
        this.log(`received ${sig}`);
        void this.shutdown(0).then(this.resolveExit);
      });
    }
    try {
      await Promise.all(this.state.clusters.map((record) => this.startCluster(record)));
      if (this.stopping) return await this.exited;
      await this.ready();
    } catch (err) {
      if (this.stopping) return await this.exited;
      this.state.phase = 'failed';
      this.state.error = describeError(err);
      this.log(`failed: ${this.state.error}`);
      this.save();
      return this.shutdown(1);
    }
    return this.exited;
  }

  /** Every cluster runs: the kubeconfigs, the monitoring if asked for, the control socket, phase `ready`. */
  private async ready(): Promise<void> {
    const ordered = [...this.running].sort((a, b) => a.spec.index - b.spec.index);
    fs.writeFileSync(this.state.kubeconfig, kubeconfigYaml(ordered, 'admin'), { mode: 0o600 });
    fs.writeFileSync(this.state.readOnlyKubeconfig, kubeconfigYaml(ordered, 'viewer'), { mode: 0o600 });
    if (this.opts.withMonitoring) {
      this.state.progress = 'starting Prometheus and Alertmanager';
      this.save();
      await this.monitoring.start();
    }
    this.server = await serveControl(this.state.controlSocket, this.running, this.save, this.log, this.monitoring);
    this.state.phase = 'ready';
    this.state.progress = undefined;
    this.save();
    this.log('sandbox ready');
  }

  private async shutdown(code: number): Promise<number> {
    if (this.stopping) return code;
    this.stopping = true;
    this.abort.abort();
    if (this.state.phase !== 'failed') this.state.phase = 'stopping';
    this.save();
    await this.monitoring.stop().catch((err: unknown) => this.log(`monitoring: ${describeError(err)}`));
    await Promise.allSettled(this.running.map((c) => c.sims?.stop()));
    await Promise.allSettled(this.running.map((c) => c.procs.stopAll()));
    this.server?.close();
    fs.rmSync(this.state.controlSocket, { force: true });
    this.log(`stopped (exit ${code})`);
    return code;
  }

  /** One cluster: its files, etcd, the API server, controller manager and scheduler, the read-only role, the simulators. */
  private async startCluster(record: ClusterRecord): Promise<void> {
    const { opts } = this;
    const spec: ClusterSpec = {
      name: record.name,
      context: record.context,
      index: record.index,
      dir: clusterDir(opts.dir, record.name),
      ports: record.ports,
    };
    fs.mkdirSync(spec.dir, { recursive: true });
    const access = await prepareClusterFiles(spec);
    writeAuditPolicy(spec.dir);
    const procs = new ClusterProcesses(spec, opts.binaries, (role, pid) => {
      if (pid) record.pids[role] = pid;
      else delete record.pids[role];
      if (role === 'kube-apiserver' && !pid && record.apiserver === 'running' && !this.stopping) record.apiserver = 'exited';
      this.save();
    });
    const cluster: RunningCluster = {
      spec,
      access,
      procs,
      record,
      kc: accessConfig(spec, access, 'sim'),
      etcdPort: spec.ports.etcdClient,
    };
    this.running.push(cluster);
    const step = (what: string) => {
      this.log(`${spec.context}: ${what}`);
      this.state.progress = `${spec.context}: ${what}`;
      this.save();
    };
    step('starting etcd');
    procs.spawn('etcd');
    await waitFor(`${spec.context} etcd`, () => etcdHealthy(spec.ports.etcdClient), 60_000, this.abort.signal);
    step('starting kube-apiserver');
    procs.spawn('kube-apiserver');
    await waitFor(`${spec.context} kube-apiserver`, () => apiserverReady(cluster.kc), 90_000, this.abort.signal);
    step('starting controller manager and scheduler');
    procs.spawn('kube-controller-manager');
    procs.spawn('kube-scheduler');
    await ensureReadOnlyRole(cluster.kc);
    step(`registering ${opts.nodes} simulated nodes${opts.replaceDrained ? ' (replaced when drained)' : ''}`);
    cluster.sims = await startSimulators(
      {
        kc: cluster.kc,
        cluster: { name: spec.name, index: spec.index },
        log: (l) => this.log(`${spec.context}: ${l}`),
        runtime: this.runtime(spec, record),
      },
      { nodes: opts.nodes, replaceDrained: opts.replaceDrained ?? true },
    );
    // Pods in `default` are refused until the token controller gave its ServiceAccount a token.
    await waitFor(`${spec.context} default ServiceAccount token`, () => defaultTokenReady(cluster.kc), 60_000, this.abort.signal);
    step('ready');
  }

  /** What running pods for real needs of the supervisor (see SandboxRuntime). */
  private runtime(spec: ClusterSpec, record: ClusterRecord): SandboxRuntime {
    return {
      dir: spec.dir,
      binaries: { etcd: this.opts.binaries.etcd, 'kube-apiserver': this.opts.binaries['kube-apiserver'] },
      hostnames: this.hostnames,
      // Saved at once (synchronously): a supervisor killed right after a start still leaves
      // the PID for `sandbox down`.
      recordProcess: (key, pid) => {
        record.podProcesses ??= {};
        if (pid) record.podProcesses[key] = pid;
        else delete record.podProcesses[key];
        this.save();
      },
    };
  }
}

/**
 * A real Prometheus and Alertmanager for the sandbox, run by its supervisor as children beside the
 * clusters' processes (`sandbox up --with-monitoring`, `sandbox monitoring start`): recorded in
 * state.json (`monitoring`: URLs, PIDs), stopped with the sandbox. Prometheus discovers every
 * cluster's pods and scrapes those annotated `prometheus.io/scrape: "true"` through the sandbox's
 * pod network (monitoring-proxy.ts), evaluates TargetDown every second and sends its alerts to the
 * Alertmanager. Both listen on free ports of 127.0.0.1; their files are under `<dir>/monitoring/`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import {
  monitoringBinaries,
  prometheusAccepts,
  writePrometheusAccess,
  type AccessedCluster,
  type MonitoringBinaries,
} from './monitoring-access.js';
import { alertmanagerConfig, alertRules, prometheusConfig, type Discovery, type ScrapedCluster } from './monitoring-config.js';
import { PodDiscovery } from './monitoring-discovery.js';
import { PodProxy } from './monitoring-proxy.js';
import type { MonitoringProcess, MonitoringRecord, SandboxState } from './state.js';

/** A cluster the supervisor runs, as the monitoring needs it. */
export interface MonitoredCluster extends AccessedCluster {
  /** Its simulated kubelet: where a pod IP's process listens. */
  sims?: { kubelet: { localAddressOfPodIP(podIP: string): string | undefined } };
}

/** What the monitoring needs of the supervisor. */
export interface MonitoringHost {
  dir: string;
  state: SandboxState;
  save: () => void;
  log: (line: string) => void;
  clusters: () => readonly MonitoredCluster[];
  /** Aborted when the supervisor shuts down: a start under way stops. */
  signal: AbortSignal;
}

type Name = 'prometheus' | 'alertmanager';

/** How long Prometheus and Alertmanager get to answer `/-/ready`. */
const READY_TIMEOUT_MS = 60_000;

/** `n` distinct free ports of 127.0.0.1 (held open together, then released). */
async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve, reject) => {
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve());
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** The environment of the children: the supervisor's, without proxies (everything they reach is on this machine). */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^(https?|no|all)_proxy$/i.test(k)) delete env[k];
  return env;
}

/** The last lines of a log, for the reason a process did not start. */
function tail(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return '';
  }
}

async function answersReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

/** What runs while the monitoring runs (each part set once started, so a failed start stops what it had). */
interface Parts {
  children: Partial<Record<Name, ChildProcess>>;
  proxy?: PodProxy;
  discovery?: PodDiscovery;
}

export class SandboxMonitoring {
  private parts: Parts | undefined;
  private pending: Promise<MonitoringRecord> | undefined;
  private stopping = false;

  constructor(private readonly host: MonitoringHost) {}

  /** Starts Prometheus and Alertmanager (or finds them running); resolves once both answer ready. */
  start(): Promise<MonitoringRecord> {
    this.pending ??= this.ensure(this.host.signal).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Stops them (a start under way first finishes or fails) and removes them from the state. */
  async stop(): Promise<void> {
    await this.pending?.catch(() => {});
    await this.teardown();
  }

  private alive(): boolean {
    const c = this.parts?.children;
    return !!c && [c.prometheus, c.alertmanager].every((p) => !!p && p.exitCode === null && p.signalCode === null);
  }

  private async ensure(signal?: AbortSignal): Promise<MonitoringRecord> {
    const running = this.host.state.monitoring;
    if (running && this.alive()) return running;
    await this.teardown(); // what is left of a run whose process died
    try {
      return await this.launch(signal);
    } catch (err) {
      await this.teardown();
      throw err;
    }
  }

  private async launch(signal?: AbortSignal): Promise<MonitoringRecord> {
    const { host } = this;
    const bin = monitoringBinaries();
    const dir = path.join(host.dir, 'monitoring');
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true, mode: 0o700 });
    for (const data of ['prometheus-data', 'alertmanager-data']) fs.rmSync(path.join(dir, data), { recursive: true, force: true });
    const parts: Parts = { children: {} };
    this.parts = parts;
    host.log('monitoring: granting Prometheus access to every cluster');
    const clusters = host.clusters();
    const kubeconfigs = await Promise.all(clusters.map((c) => writePrometheusAccess(c, dir)));
    signal?.throwIfAborted();
    const lookup = (ip: string) => clusters.map((c) => c.sims?.kubelet.localAddressOfPodIP(ip)).find(Boolean);
    parts.proxy = new PodProxy(lookup);
    const podProxy = await parts.proxy.start();
    const [promPort = 0, amPort = 0] = await freePorts(2);
    const url = (port: number) => `http://127.0.0.1:${port}`;
    const scraped = clusters.map((c, i) => ({ context: c.spec.context, kubeconfig: kubeconfigs[i]!, discoveryUrl: '' }));
    const discovery = await this.writeConfig(bin, dir, scraped, `127.0.0.1:${amPort}`, podProxy, parts);
    const logOf = (n: Name) => path.join(dir, 'logs', `${n}.log`);
    const record: MonitoringRecord = {
      prometheus: { url: url(promPort), log: logOf('prometheus') },
      alertmanager: { url: url(amPort), log: logOf('alertmanager') },
      discovery,
      podProxy,
      dir,
    };
    host.state.monitoring = record;
    host.save();
    host.log(
      `monitoring: starting Alertmanager (${record.alertmanager.url}) and Prometheus (${record.prometheus.url}; pods: ${discovery} discovery)`,
    );
    this.spawn('alertmanager', bin.alertmanager, record.alertmanager, [
      `--config.file=${path.join(dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(dir, 'alertmanager-data')}`,
      `--web.listen-address=127.0.0.1:${amPort}`,
      '--cluster.listen-address=',
    ]);
    this.spawn('prometheus', bin.prometheus, record.prometheus, [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'prometheus-data')}`,
      '--storage.tsdb.retention.time=1d',
      `--web.listen-address=127.0.0.1:${promPort}`,
    ]);
    await Promise.all((['alertmanager', 'prometheus'] as const).map((n) => this.waitReady(n, record[n], signal)));
    host.log('monitoring: ready');
    return record;
  }

  /**
   * Writes the rules, Alertmanager's and Prometheus's configuration. Kubernetes service discovery
   * where this Prometheus has it, else the sandbox's pods served to its HTTP service discovery.
   */
  private async writeConfig(
    bin: MonitoringBinaries,
    dir: string,
    clusters: ScrapedCluster[],
    alertmanager: string,
    podProxy: string,
    parts: Parts,
  ): Promise<Discovery> {
    const rulesFile = path.join(dir, 'rules.yml');
    const configFile = path.join(dir, 'prometheus.yml');
    fs.writeFileSync(rulesFile, alertRules());
    fs.writeFileSync(path.join(dir, 'alertmanager.yml'), alertmanagerConfig());
    const write = (discovery: Discovery) =>
      fs.writeFileSync(configFile, prometheusConfig({ clusters, discovery, rulesFile, alertmanager, podProxy }));
    write('kubernetes');
    if (prometheusAccepts(bin, configFile)) return 'kubernetes';
    const kcs = clusters.map((c) => {
      const kc = new KubeConfig();
      kc.loadFromFile(c.kubeconfig);
      return { context: c.context, kc };
    });
    parts.discovery = new PodDiscovery(kcs, this.host.log);
    await parts.discovery.start();
    for (const c of clusters) c.discoveryUrl = parts.discovery.url(c.context);
    write('http');
    return 'http';
  }

  private spawn(name: Name, file: string, rec: MonitoringProcess, args: string[]): void {
    const out = fs.openSync(rec.log, 'a');
    const child = spawn(file, args, { stdio: ['ignore', out, out], env: childEnv(), cwd: path.dirname(rec.log) });
    fs.closeSync(out);
    this.parts!.children[name] = child;
    rec.pid = child.pid;
    this.host.save();
    child.on('error', (err) => this.host.log(`monitoring: ${name}: ${err.message}`));
    child.on('exit', (code, sig) => {
      if (this.parts?.children[name] !== child) return;
      delete rec.pid;
      this.host.save();
      if (!this.stopping) this.host.log(`monitoring: ${name} exited (${sig ?? `code ${code}`}); see ${rec.log}`);
    });
  }

  private async waitReady(name: Name, rec: MonitoringProcess, signal?: AbortSignal): Promise<void> {
    const child = this.parts?.children[name];
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      signal?.throwIfAborted();
      if (!child || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${name} exited during start-up: ${tail(rec.log) || 'no output'} (log: ${rec.log})`);
      }
      if (await answersReady(rec.url)) return;
      if (Date.now() > deadline) throw new Error(`${name} did not answer ready within ${READY_TIMEOUT_MS / 1000} s (log: ${rec.log})`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stops Prometheus first (its last alerts go out), then Alertmanager, the proxy and the discovery. */
  private async teardown(): Promise<void> {
    const parts = this.parts;
    if (!parts) return;
    this.stopping = true;
    for (const name of ['prometheus', 'alertmanager'] as const) await stopChild(parts.children[name]);
    await Promise.allSettled([parts.proxy?.stop(), parts.discovery?.stop()]);
    if (this.parts === parts) this.parts = undefined;
    delete this.host.state.monitoring;
    this.host.save();
    this.stopping = false;
  }
}

/** SIGTERM, then SIGKILL after 5 s. */
async function stopChild(c: ChildProcess | undefined): Promise<void> {
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(t);
}

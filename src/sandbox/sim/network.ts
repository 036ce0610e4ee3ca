import fs from 'node:fs';
import path from 'node:path';
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { AddressPool, portsFree, type SandboxRuntime, type SimContext } from './context.js';
import { Forwarder, type Backend } from './forwarder.js';
import {
  canUnshare,
  isHeadless,
  renderHosts,
  selects,
  serviceHostEntries,
  svcKey,
  writeInPlace,
  type PodAddress,
  type HostsEntry,
} from './hosts.js';

/**
 * The network of one sandbox cluster as its real processes see it: every pod that runs a
 * process gets its own loopback address (`127.4.<cluster>.<n>`); a hosts file (bind-mounted
 * over /etc/hosts in each process's mount namespace, rewritten in place) resolves Service
 * names as cluster DNS would, plus every cluster's load-balancer hostnames; Services that
 * select such pods get a virtual address (`127.5.<cluster>.<n>`) forwarding their ports, and
 * LoadBalancer Services forward from their ingress IP (a hostname ingress: from the virtual
 * address the hostname resolves to) to a Ready pod, chosen per connection.
 */
export class ClusterNetwork {
  readonly hostsFile: string;
  private readonly pods = new Map<string, PodAddress>();
  private readonly services = new Map<string, V1Service>();
  private readonly vips = new Map<string, string>();
  private readonly vipPool: AddressPool;
  private readonly localPool: AddressPool;
  private readonly forwarders = new Map<string, Forwarder>();
  private readonly failedListens = new Map<string, string>();
  private readonly allocating = new Set<string>();
  private readonly unsubscribe: () => void;
  private pending: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private lastHosts = '';
  private warnedNoUnshare = false;
  private closed = false;

  constructor(
    private readonly ctx: SimContext,
    private readonly runtime: SandboxRuntime,
  ) {
    fs.mkdirSync(runtime.dir, { recursive: true });
    this.hostsFile = path.join(runtime.dir, 'hosts');
    this.localPool = new AddressPool([127, 4, ctx.cluster.index]);
    this.vipPool = new AddressPool([127, 5, ctx.cluster.index]);
    this.writeHosts(this.renderNow());
    this.unsubscribe = runtime.hostnames.onChange(() => this.changed());
  }

  /** Whether processes get the hosts file as /etc/hosts; says once when they cannot. */
  mountNamespaces(): boolean {
    const ok = canUnshare();
    if (!ok && !this.warnedNoUnshare) {
      this.warnedNoUnshare = true;
      this.ctx.log(
        'network: cannot give processes their own mount namespace (needs root and util-linux unshare); Service names will not resolve for them',
      );
    }
    return ok;
  }

  /**
   * A fresh loopback address for a pod where nothing listens on `ports` yet (another sandbox
   * on the machine uses the same ranges), or undefined when none is left.
   */
  allocateAddress(ports: readonly number[]): Promise<string | undefined> {
    return this.localPool.allocateUsable((ip) => portsFree(ip, ports));
  }

  releaseAddress(ip: string): void {
    this.localPool.release(ip);
  }

  setPod(pod: PodAddress): void {
    const before = this.pods.get(pod.uid);
    if (before && JSON.stringify(before) === JSON.stringify(pod)) return;
    this.pods.set(pod.uid, { ...pod, labels: { ...pod.labels } });
    this.changed();
  }

  removePod(uid: string): void {
    if (this.pods.delete(uid)) this.changed();
  }

  setService(svc: V1Service): void {
    this.services.set(svcKey(svc), svc);
    this.changed();
  }

  removeService(svc: V1Service): void {
    const key = svcKey(svc);
    const cached = this.services.get(key);
    if (cached && cached.metadata?.uid !== svc.metadata?.uid) return;
    if (this.services.delete(key)) this.changed();
  }

  /** Ready local addresses of the pods behind a Service port (where a connection to it goes). */
  backends(svc: V1Service, port: V1ServicePort): Backend[] {
    const out: Backend[] = [];
    for (const pod of this.pods.values()) {
      if (!pod.ready || !selects(svc, pod)) continue;
      const target = port.targetPort ?? port.port;
      let p: number | undefined;
      if (typeof target === 'number') p = target;
      else if (/^\d+$/.test(String(target))) p = Number(target);
      else p = pod.ports.find((x) => x.name === target)?.containerPort;
      if (p) out.push({ ip: pod.ip, port: p });
    }
    return out.sort((a, b) => a.ip.localeCompare(b.ip, 'en', { numeric: true }));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.pending) clearTimeout(this.pending);
    if (this.retry) clearTimeout(this.retry);
    this.unsubscribe();
    this.runtime.hostnames.publish(this.ctx.cluster.name, new Map());
    await Promise.allSettled([...this.forwarders.values()].map((f) => f.close()));
    this.forwarders.clear();
  }

  // --- internals ---

  private changed(): void {
    if (this.closed || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.reconcile();
    }, 20);
  }

  private wantsVip(svc: V1Service): boolean {
    if (isHeadless(svc) || svc.metadata?.deletionTimestamp || !svc.spec?.selector) return false;
    if ((svc.status?.loadBalancer?.ingress ?? []).some((i) => i.hostname && !i.ip)) return true;
    for (const pod of this.pods.values()) if (selects(svc, pod)) return true;
    return false;
  }

  private reconcile(): void {
    if (this.closed) return;
    // Virtual addresses: kept while wanted, released after.
    for (const [key, ip] of this.vips) {
      const svc = this.services.get(key);
      if (!svc || !this.wantsVip(svc)) {
        this.vips.delete(key);
        this.vipPool.release(ip);
      }
    }
    const hostnames = new Map<string, string>();
    const wanted = new Map<string, () => Backend[]>();
    for (const [key, svc] of this.services) {
      if (svc.metadata?.deletionTimestamp) continue;
      const vip = this.vips.get(key);
      if (!vip && this.wantsVip(svc)) this.allocateVip(key, svc);
      const addresses = vip ? [vip] : [];
      if (svc.spec?.type === 'LoadBalancer') {
        for (const ing of svc.status?.loadBalancer?.ingress ?? []) {
          if (ing.ip) addresses.push(ing.ip);
          else if (ing.hostname && vip) hostnames.set(ing.hostname.toLowerCase(), vip);
        }
      }
      for (const port of svc.spec?.ports ?? []) {
        if ((port.protocol ?? 'TCP') !== 'TCP') continue;
        const resolve = () => {
          const current = this.services.get(key);
          const p = current?.spec?.ports?.find((x) => x.port === port.port && (x.protocol ?? 'TCP') === 'TCP');
          return current && p ? this.backends(current, p) : [];
        };
        for (const ip of addresses) wanted.set(`${ip}:${port.port}`, resolve);
      }
    }
    for (const [key, f] of this.forwarders) {
      if (!wanted.has(key)) {
        this.forwarders.delete(key);
        void f.close();
      }
    }
    for (const [key, resolve] of wanted) {
      const existing = this.forwarders.get(key);
      if (existing) {
        existing.backends = resolve;
        continue;
      }
      const sep = key.lastIndexOf(':');
      const f = new Forwarder(key.slice(0, sep), Number(key.slice(sep + 1)), resolve);
      this.forwarders.set(key, f);
      f.listen().then(
        () => this.failedListens.delete(key),
        (err: unknown) => {
          if (this.forwarders.get(key) === f) this.forwarders.delete(key);
          const message = describeError(err);
          if (this.failedListens.get(key) !== message) this.ctx.log(`network: cannot listen on ${key}: ${message} (retrying)`);
          this.failedListens.set(key, message);
          this.scheduleRetry();
        },
      );
    }
    this.runtime.hostnames.publish(this.ctx.cluster.name, hostnames);
    this.writeHosts(this.renderNow());
  }

  /** A virtual address for a Service, where nothing listens on its ports yet; reconciles again once found. */
  private allocateVip(key: string, svc: V1Service): void {
    if (this.allocating.has(key)) return;
    this.allocating.add(key);
    const ports = (svc.spec?.ports ?? []).map((p) => p.port);
    void this.vipPool
      .allocateUsable((ip) => portsFree(ip, ports))
      .then((ip) => {
        this.allocating.delete(key);
        if (!ip) {
          this.ctx.log(`network: no virtual address left for ${key}`);
          return;
        }
        const current = this.services.get(key);
        if (this.closed || !current || !this.wantsVip(current) || this.vips.has(key)) {
          this.vipPool.release(ip);
          return;
        }
        this.vips.set(key, ip);
        this.changed();
      });
  }

  private scheduleRetry(): void {
    if (this.retry || this.closed) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.reconcile();
    }, 5000);
  }

  private entries(): HostsEntry[] {
    const entries = serviceHostEntries([...this.services.values()], [...this.pods.values()], this.vips);
    for (const [hostname, ip] of this.runtime.hostnames.entries()) entries.push({ ip, names: [hostname] });
    return entries;
  }

  /** The address a name has as seen from this cluster (Service names and load-balancer hostnames), as its hosts file says. */
  lookup(hostname: string): string | undefined {
    return this.entries().find((e) => e.names.includes(hostname))?.ip;
  }

  private renderNow(): string {
    return renderHosts(this.entries(), `fleetdeck sandbox: names as seen from cluster ${this.ctx.cluster.name}`);
  }

  /** Rewrites the hosts file in place (see writeInPlace) when its content changed. */
  private writeHosts(content: string): void {
    if (content === this.lastHosts) return;
    writeInPlace(this.hostsFile, content);
    this.lastHosts = content;
  }
}

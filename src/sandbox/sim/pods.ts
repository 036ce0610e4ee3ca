import { CoreV1Api, type V1Pod, type V1PodStatus } from '@kubernetes/client-node';
import { podLogDir, podLogDirs, removePodLogs } from './container-log.js';
import { makeClient } from '../../kube/transport/client.js';
import { ResilientWatch } from '../../kube/watch/watch.js';
import { FIELD_MANAGER, isConflict, isNotFound, AddressPool, watchErrorLogger, type SimContext } from './context.js';
import type { ClusterNetwork } from './network.js';
import { PodCache } from './pod-cache.js';
import { faultOf, isTerminal, podStatus, recordFault, reported, unpulled } from './pod-status.js';
import { WorkQueue } from './queue.js';
import type { LogTarget } from './kubelet-server.js';
import { RealPod, realPorts, runsForReal } from './real-pod.js';
import { SimulatedLogs } from './sim-logs.js';

const keyOf = (pod: V1Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/**
 * Where pod IPs come from. `cluster`: `10.<244 + cluster index % 12>.x.y`, like a usual pod
 * network; Endpoints accept these. `loopback`: `127.<100 + cluster index % 100>.x.y`, which
 * nothing outside the machine can ever be reached through, but which Endpoints validation
 * rejects ("may not be in the loopback range"), so Services get no endpoints.
 */
export type PodNetwork = 'cluster' | 'loopback';

export function podAddressPrefix(network: PodNetwork, clusterIndex: number): [number, number] {
  return network === 'loopback' ? [127, 100 + (clusterIndex % 100)] : [10, 244 + (clusterIndex % 12)];
}

/** How long a pod's processes get between SIGTERM and SIGKILL (at most; the pod may ask for less). */
const MAX_GRACE_MS = 10_000;

/**
 * The container-runtime half of the simulated kubelet: pods bound to one of its nodes are
 * reported Running and Ready with a pod IP, and pods being deleted gracefully are
 * finished off (deleted with grace period 0), as a kubelet does once containers stopped.
 * Pod IPs are unique within the cluster (see PodNetwork). With a sandbox runtime and network,
 * pods with etcd, kube-apiserver or nova-agent containers run for real (see RealPod) and
 * report what their processes do.
 */
export class PodRunner {
  private readonly core: CoreV1Api;
  private readonly pods = new PodCache();
  private readonly ips = new Map<string, string>(); // pod uid → IP we gave it
  private readonly pool: AddressPool;
  private readonly queue: WorkQueue;
  private readonly watch: ResilientWatch<V1Pod>;
  private readonly real = new Map<string, RealPod>(); // pod uid → its running containers
  private readonly reported = new Map<string, number>(); // pod uid → RealPod version last written
  private readonly stopping = new Set<Promise<void>>();
  /** With the runtime: the container logs of simulated pods. */
  private readonly simLogs: SimulatedLogs | undefined;
  private stopped = false;

  /**
   * `nodeIP(name)` is the node's address if the node is ours, else undefined; `onNodePods(name)`
   * is told whenever a pod bound to one of our nodes was added, changed or went away.
   */
  constructor(
    private readonly ctx: SimContext,
    private readonly nodeIP: (nodeName: string) => string | undefined,
    network: PodNetwork = 'cluster',
    private readonly net?: ClusterNetwork,
    private readonly onNodePods: (nodeName: string) => void = () => {},
  ) {
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.pool = new AddressPool(podAddressPrefix(network, ctx.cluster.index));
    this.simLogs = ctx.runtime ? new SimulatedLogs(ctx.runtime.dir) : undefined;
    this.queue = new WorkQueue('pod', (key) => this.sync(key), ctx.log, 16);
    this.watch = new ResilientWatch<V1Pod>({
      kc: ctx.kc,
      path: '/api/v1/pods',
      list: () => this.core.listPodForAllNamespaces(),
      onList: (items) => {
        const seen = new Set<string>();
        for (const p of items) {
          seen.add(keyOf(p));
          this.observe(p);
        }
        for (const [key, p] of [...this.pods.entries()]) if (!seen.has(key)) this.dropped(key, p);
        this.removeStaleLogs(items);
      },
      onEvent: (type, p) => (type === 'DELETED' ? this.dropped(keyOf(p), p) : this.observe(p)),
      onError: watchErrorLogger(ctx.log, 'pods'),
    });
  }

  async start(): Promise<void> {
    this.watch.start();
  }

  /** Stops watching and every process of the pods it runs. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.watch.stop(), this.queue.stop()]);
    for (const uid of [...this.real.keys()]) this.stopReal(uid, 5000);
    this.simLogs?.stopAll();
    await Promise.allSettled([...this.stopping]);
  }

  /** A pod one of our nodes runs, for its kubelet's log endpoint: what real containers do now, else its reported status. */
  logTarget(namespace: string, name: string): LogTarget | undefined {
    const pod = this.pods.get(`${namespace}/${name}`);
    if (!pod) return undefined;
    const rp = this.real.get(pod.metadata?.uid ?? '');
    const all = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
    const reportedStatus = (c: string) =>
      [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((s) => s.name === c);
    return {
      pod,
      status: (c) => {
        const spec = all.find((x) => x.name === c);
        return (spec && rp?.status(spec)) ?? reportedStatus(c);
      },
    };
  }

  /** Log directories of pods that are gone (deleted while the sandbox was down) are removed. */
  private removeStaleLogs(items: V1Pod[]): void {
    if (!this.ctx.runtime) return;
    const uids = new Set(items.map((p) => p.metadata?.uid));
    for (const { uid, dir } of podLogDirs(this.ctx.runtime.dir)) if (!uids.has(uid)) removePodLogs(dir);
  }

  /** The pods bound to one of our nodes, as last seen (finished and terminating ones included). */
  podsOn(nodeName: string): V1Pod[] {
    return this.pods.podsOn(nodeName);
  }

  /** The loopback address of a pod that runs for real (key `namespace/name`), if it has one. */
  localAddress(key: string): string | undefined {
    const uid = this.pods.get(key)?.metadata?.uid;
    return uid ? this.real.get(uid)?.ip : undefined;
  }

  /** Runs for real: a container the sandbox runs (real-pod.ts), every image pullable (else it waits on the pull, as a node does). */
  private isReal(pod: V1Pod): boolean {
    return !!this.ctx.runtime && !!this.net && runsForReal(pod) && unpulled(pod) === undefined;
  }

  private stopReal(uid: string, graceMs: number): Promise<void> {
    const rp = this.real.get(uid);
    this.real.delete(uid);
    this.reported.delete(uid);
    if (!rp) return Promise.resolve();
    const p = rp.stop(graceMs).finally(() => this.stopping.delete(p));
    this.stopping.add(p);
    return p;
  }

  private observe(pod: V1Pod): void {
    const key = keyOf(pod);
    for (const ip of pod.status?.podIPs ?? []) if (ip.ip) this.pool.markUsed(ip.ip);
    const node = pod.spec?.nodeName;
    if (!node || !this.nodeIP(node)) {
      const before = this.pods.get(key)?.spec?.nodeName;
      this.pods.delete(key);
      this.simLogs?.stopped(pod.metadata?.uid ?? ''); // its node is gone: its containers stop writing
      if (before) this.onNodePods(before);
      return;
    }
    this.pods.set(key, pod);
    this.real.get(pod.metadata?.uid ?? '')?.update(pod);
    // Started before (a restart of the sandbox): its simulated containers write on.
    if (pod.status?.containerStatuses?.length && !pod.metadata?.deletionTimestamp && !isTerminal(pod) && !this.isReal(pod)) {
      this.simLogs?.started(pod);
    }
    if (this.needsWork(pod)) this.queue.add(key);
    this.onNodePods(node);
  }

  private dropped(key: string, pod: V1Pod): void {
    const cached = this.pods.get(key);
    if (cached && cached.metadata?.uid !== pod.metadata?.uid) return; // an older incarnation
    this.pods.delete(key);
    if (cached?.spec?.nodeName) this.onNodePods(cached.spec.nodeName);
    this.queue.forget(key);
    const uid = pod.metadata?.uid ?? '';
    this.simLogs?.stopped(uid);
    const runtime = this.ctx.runtime;
    // As the kubelet does, the pod's logs go with it (once its processes stopped writing).
    void this.stopReal(uid, 2000).then(() => {
      if (runtime) removePodLogs(podLogDir(runtime.dir, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', uid));
    });
    this.pool.release(this.ips.get(uid));
    this.ips.delete(uid);
    if (pod.spec?.hostNetwork !== true) for (const ip of pod.status?.podIPs ?? []) this.pool.release(ip.ip);
  }

  private needsWork(pod: V1Pod): boolean {
    if (pod.metadata?.deletionTimestamp) return true;
    if (isTerminal(pod)) return false;
    if (this.isReal(pod)) {
      const uid = pod.metadata?.uid ?? '';
      const rp = this.real.get(uid);
      if (!rp || !pod.status?.podIP || this.reported.get(uid) !== rp.version) return true;
      // Someone else changed what was reported (the node controller marks the pods of a node it
      // lost touch with not Ready): report it again, as a kubelet does.
      return (reported(pod) === 'Running') !== rp.ready();
    }
    return reported(pod) !== (faultOf(pod) ?? 'Running');
  }

  private async sync(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod || !this.needsWork(pod)) return;
    const hostIP = this.nodeIP(pod.spec?.nodeName ?? '');
    if (!hostIP) return;
    if (pod.metadata?.deletionTimestamp) return this.finishDeletion(pod);
    let rp: RealPod | undefined;
    if (this.isReal(pod)) {
      rp = this.real.get(pod.metadata?.uid ?? '') ?? (await this.startReal(key, pod));
      if (!rp) return;
    }
    await this.report(key, pod, hostIP, rp);
  }

  /**
   * Stops the pod's processes (within its grace period, at most MAX_GRACE_MS), then finishes
   * the graceful deletion. With a request body the API server reads the options from the body
   * only, so the grace period goes there too.
   */
  private async finishDeletion(pod: V1Pod): Promise<void> {
    const uid = pod.metadata?.uid ?? '';
    this.simLogs?.stopped(uid);
    if (this.real.has(uid)) {
      const graceMs = Math.min(
        MAX_GRACE_MS,
        (pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000,
      );
      await this.stopReal(uid, graceMs);
    }
    try {
      await this.core.deleteNamespacedPod({
        name: pod.metadata?.name ?? '',
        namespace: pod.metadata?.namespace ?? '',
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, preconditions: { uid } },
      });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  /** Gives a pod that runs for real its loopback address and starts its containers; undefined when it cannot (now). */
  private async startReal(key: string, pod: V1Pod): Promise<RealPod | undefined> {
    const uid = pod.metadata?.uid ?? '';
    if (this.stopped) return undefined;
    const ip = await this.net!.allocateAddress(realPorts(pod));
    if (!ip) {
      this.ctx.log(`kubelet: no local address left for ${key}`);
      return undefined;
    }
    if (this.stopped || this.pods.get(key)?.metadata?.uid !== uid) {
      this.net!.releaseAddress(ip);
      return undefined;
    }
    const rp: RealPod = new RealPod(pod, ip, {
      ctx: this.ctx,
      runtime: this.ctx.runtime!,
      network: this.net!,
      core: this.core,
      onChange: () => {
        if (this.real.get(uid) === rp) this.queue.add(key);
      },
    });
    this.real.set(uid, rp);
    rp.start();
    return rp;
  }

  /** Writes the pod's status (and the Warning event of a fault); a conflict reads the pod again and retries. */
  private async report(key: string, pod: V1Pod, hostIP: string, rp: RealPod | undefined): Promise<void> {
    const namespace = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const uid = pod.metadata?.uid ?? '';
    const version = rp?.version;
    const status = this.statusFor(pod, hostIP, rp);
    if (!status) return;
    try {
      const updated = await this.core.replaceNamespacedPodStatus({
        name,
        namespace,
        body: { ...pod, status },
        fieldManager: FIELD_MANAGER,
      });
      if (rp && version !== undefined && this.real.get(uid) === rp) this.reported.set(uid, version);
      if (this.pods.get(key)?.metadata?.uid === uid) this.pods.set(key, updated);
      if (!rp) this.simLogs?.started(updated);
      const fault = rp ? undefined : faultOf(pod);
      if (fault) await recordFault(this.core, updated, fault, this.ctx.log);
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err)) throw err;
      // Changed meanwhile: read it again and retry with the fresh version.
      try {
        const fresh = await this.core.readNamespacedPod({ name, namespace });
        if (fresh.metadata?.uid === uid) {
          this.pods.set(key, fresh);
          this.queue.add(key);
        }
      } catch (readErr) {
        if (!isNotFound(readErr)) throw readErr;
      }
    }
  }

  /** The status a kubelet reports once it started the pod (or failed as FAULT_ANNOTATION asks); undefined if no IP is left. */
  private statusFor(pod: V1Pod, hostIP: string, rp?: RealPod): V1PodStatus | undefined {
    const uid = pod.metadata?.uid ?? '';
    let podIP = pod.spec?.hostNetwork ? hostIP : (pod.status?.podIP ?? this.ips.get(uid));
    if (!podIP) {
      podIP = this.pool.allocate();
      if (!podIP) {
        this.ctx.log(`kubelet: no pod IP left for ${keyOf(pod)}`);
        return undefined;
      }
      this.ips.set(uid, podIP);
    }
    return podStatus(pod, hostIP, podIP, rp);
  }
}

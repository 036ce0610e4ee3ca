import { CoreV1Api, type V1LoadBalancerIngress, type V1Service } from '@kubernetes/client-node';
import { makeClient } from '../../kube/transport/client.js';
import { ResilientWatch } from '../../kube/watch/watch.js';
import { FIELD_MANAGER, isConflict, isNotFound, AddressPool, portsFree, watchErrorLogger, type SimContext } from './context.js';
import type { ClusterNetwork } from './network.js';
import { WorkQueue } from './queue.js';

/** Service annotation: `"true"` makes the sandbox publish a hostname instead of an IP. */
export const LB_HOSTNAME_ANNOTATION = 'fleetdeck.io/sandbox-lb-hostname';
export const LB_HOSTNAME_SUFFIX = 'lb.sandbox.local';

const keyOf = (svc: V1Service) => `${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`;

/**
 * Plays a cloud's load-balancer controller: every `type: LoadBalancer` Service gets an ingress
 * address from `127.3.<cluster index>.<n>` (or the loopback `spec.loadBalancerIP` it asks for),
 * or a hostname `<svc>.<ns>.lb.sandbox.local` when annotated; a Service that stops being a
 * LoadBalancer has its ingress cleared. Given the cluster network, it also forwards: TCP
 * connections to `<ingress IP>:<port>` go to a Ready pod of the Service (see ClusterNetwork);
 * a hostname resolves, for the sandbox's processes and agents, to an address that forwards
 * the same way.
 */
export class LoadBalancerController {
  private readonly core: CoreV1Api;
  private readonly services = new Map<string, V1Service>();
  private readonly pool: AddressPool;
  private readonly queue: WorkQueue;
  private readonly watch: ResilientWatch<V1Service>;

  constructor(
    private readonly ctx: SimContext,
    private readonly network?: ClusterNetwork,
  ) {
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.pool = new AddressPool([127, 3, ctx.cluster.index]);
    this.queue = new WorkQueue('service', (key) => this.sync(key), ctx.log, 4);
    this.watch = new ResilientWatch<V1Service>({
      kc: ctx.kc,
      path: '/api/v1/services',
      list: () => this.core.listServiceForAllNamespaces(),
      onList: (items) => {
        const seen = new Set(items.map(keyOf));
        for (const [key, svc] of this.services) if (!seen.has(key)) this.dropped(svc);
        for (const svc of items) this.remember(svc);
        for (const svc of items) this.observe(svc);
      },
      onEvent: (type, svc) => {
        if (type === 'DELETED') return this.dropped(svc);
        this.remember(svc);
        this.observe(svc);
      },
      onError: watchErrorLogger(ctx.log, 'services'),
    });
  }

  async start(): Promise<void> {
    this.watch.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.watch.stop(), this.queue.stop()]);
  }

  private remember(svc: V1Service): void {
    const key = keyOf(svc);
    const before = this.services.get(key);
    for (const ing of before?.status?.loadBalancer?.ingress ?? []) this.pool.release(ing.ip);
    this.services.set(key, svc);
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip) this.pool.markUsed(ing.ip);
    this.network?.setService(svc);
  }

  private observe(svc: V1Service): void {
    if (this.desired(svc) !== 'keep') this.queue.add(keyOf(svc));
  }

  private dropped(svc: V1Service): void {
    const key = keyOf(svc);
    const cached = this.services.get(key);
    if (cached && cached.metadata?.uid !== svc.metadata?.uid) return;
    this.services.delete(key);
    this.queue.forget(key);
    for (const ing of cached?.status?.loadBalancer?.ingress ?? []) this.pool.release(ing.ip);
    this.network?.removeService(svc);
  }

  private desired(svc: V1Service): 'assign' | 'clear' | 'keep' {
    const hasIngress = (svc.status?.loadBalancer?.ingress ?? []).length > 0;
    const isLB = svc.spec?.type === 'LoadBalancer';
    if (isLB && !hasIngress && !svc.metadata?.deletionTimestamp) return 'assign';
    if (!isLB && hasIngress) return 'clear';
    return 'keep';
  }

  private async ingressFor(svc: V1Service): Promise<V1LoadBalancerIngress | undefined> {
    const name = svc.metadata?.name ?? '';
    const namespace = svc.metadata?.namespace ?? '';
    if (svc.metadata?.annotations?.[LB_HOSTNAME_ANNOTATION] === 'true') {
      return { hostname: `${name}.${namespace}.${LB_HOSTNAME_SUFFIX}` };
    }
    const requested = svc.spec?.loadBalancerIP;
    if (requested && /^127\.\d+\.\d+\.\d+$/.test(requested) && !this.pool.isUsed(requested)) {
      this.pool.markUsed(requested);
      return { ip: requested };
    }
    // Forwarding for real: skip addresses where something (another sandbox) has the ports.
    const ports = (svc.spec?.ports ?? []).filter((p) => (p.protocol ?? 'TCP') === 'TCP').map((p) => p.port);
    const ip = this.network ? await this.pool.allocateUsable((a) => portsFree(a, ports)) : this.pool.allocate();
    if (!ip) {
      this.ctx.log(`load balancer: no address left for ${namespace}/${name}`);
      return undefined;
    }
    return { ip };
  }

  private async sync(key: string): Promise<void> {
    const svc = this.services.get(key);
    if (!svc) return;
    const action = this.desired(svc);
    if (action === 'keep') return;
    let ingress: V1LoadBalancerIngress[] = [];
    if (action === 'assign') {
      const ing = await this.ingressFor(svc);
      if (!ing) return;
      ingress = [ing];
    }
    const name = svc.metadata?.name ?? '';
    const namespace = svc.metadata?.namespace ?? '';
    const body: V1Service = { ...svc, status: { ...svc.status, loadBalancer: action === 'assign' ? { ingress } : {} } };
    try {
      const updated = await this.core.replaceNamespacedServiceStatus({ name, namespace, body, fieldManager: FIELD_MANAGER });
      this.remember(updated);
      const what = ingress[0]?.ip ?? ingress[0]?.hostname;
      this.ctx.log(what ? `load balancer: ${key} → ${what}` : `load balancer: ${key} cleared`);
    } catch (err) {
      for (const ing of ingress) this.pool.release(ing.ip);
      if (isNotFound(err)) return;
      if (!isConflict(err)) throw err;
      // Changed meanwhile: read it again and decide afresh.
      try {
        const fresh = await this.core.readNamespacedService({ name, namespace });
        if (fresh.metadata?.uid !== svc.metadata?.uid) return;
        this.remember(fresh);
        this.queue.add(key);
      } catch (readErr) {
        if (!isNotFound(readErr)) throw readErr;
      }
    }
  }
}

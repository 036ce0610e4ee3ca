/** Services: the address a LoadBalancer Service was given, read once or found anywhere. */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_TIMEOUT_MS, makeClient, makeJsonClient } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';

/** The external address of a LoadBalancer Service: an IP or a hostname. */
export interface ServiceAddress {
  ip?: string;
  hostname?: string;
}

/** A LoadBalancer Service that got an address: proof that load balancers work. */
export interface LoadBalancerEvidence {
  namespace: string;
  name: string;
  /** The IP or hostname it was given. */
  address: string;
}

/** A Service as read here (the fields used). */
export interface ServiceJson {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: { type?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] | null } };
}

/** The first ingress address of a Service's load balancer (its IP, else its hostname); undefined while it has none. */
export function loadBalancerAddress(svc: ServiceJson | undefined): ServiceAddress | undefined {
  const ing = svc?.status?.loadBalancer?.ingress?.[0];
  if (ing?.ip) return { ip: ing.ip };
  if (ing?.hostname) return { hostname: ing.hostname };
  return undefined;
}

/** The load-balancer address of Service `namespace/name`; undefined when it has none or cannot be read. */
export async function readServiceAddress(kc: KubeConfig, namespace: string, name: string): Promise<ServiceAddress | undefined> {
  const svc = await makeClient(kc, CoreV1Api)
    .readNamespacedService({ name, namespace })
    .catch(() => undefined);
  return loadBalancerAddress(svc as ServiceJson | undefined);
}

/** A LoadBalancer Service anywhere that got an address; undefined when none or not allowed to look. */
export async function findLoadBalancer(kc: KubeConfig, timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<LoadBalancerEvidence | undefined> {
  try {
    const res = await listJsonPaged<ServiceJson, LoadBalancerEvidence | undefined>(
      makeJsonClient(kc, timeoutMs),
      '/api/v1/services',
      {},
      (s) => {
        if (s.spec?.type !== 'LoadBalancer') return undefined;
        const ing = s.status?.loadBalancer?.ingress?.find((i) => i.ip || i.hostname);
        if (!ing) return undefined;
        return { namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '', address: (ing.ip || ing.hostname)! };
      },
    );
    return res.items.find((e) => e !== undefined);
  } catch {
    return undefined; // evidence only: the IngressClasses and the cloud still count
  }
}

/** IngressClasses: name, controller and whether one is the default. */
import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_TIMEOUT_MS, makeJsonClient, statusCode } from '../transport/client.js';

const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

/** What the checks need to know about an IngressClass. */
export interface IngressClassInfo {
  name: string;
  controller?: string;
  isDefault?: boolean;
}

interface RawClass {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { controller?: string };
}

/** IngressClasses; none on servers older than 1.19 (no networking.k8s.io/v1 IngressClass). */
export async function listIngressClasses(kc: KubeConfig, timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<IngressClassInfo[]> {
  let res: { items?: RawClass[] | null };
  try {
    res = await makeJsonClient(kc, timeoutMs).get('/apis/networking.k8s.io/v1/ingressclasses');
  } catch (err) {
    if (statusCode(err) === 404) return [];
    throw err;
  }
  return (res.items ?? []).map((c) => ({
    name: c.metadata?.name ?? '',
    ...(c.spec?.controller ? { controller: c.spec.controller } : {}),
    ...(c.metadata?.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true' ? { isDefault: true } : {}),
  }));
}

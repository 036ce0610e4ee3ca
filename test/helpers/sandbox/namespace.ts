import type { CoreV1Api } from '@kubernetes/client-node';
import { eventually } from '../cli/cli.js';

/**
 * Creates a namespace and waits until pods can be created in it: the ServiceAccount admission
 * plugin refuses a pod until the namespace's `default` ServiceAccount exists and has its token
 * Secret (made by the controllers right after the namespace).
 */
export async function createNamespace(core: CoreV1Api, name: string, labels?: Record<string, string>): Promise<void> {
  await core.createNamespace({ body: { metadata: { name, ...(labels ? { labels } : {}) } } });
  await namespaceReady(core, name);
}

/** Waits until the namespace's `default` ServiceAccount has a token Secret. */
export async function namespaceReady(core: CoreV1Api, name: string): Promise<void> {
  await eventually(`the default ServiceAccount of ${name} with its token`, async () => {
    const sa = await core.readNamespacedServiceAccount({ name: 'default', namespace: name }).catch(() => undefined);
    const secret = sa?.secrets?.[0]?.name;
    if (!secret) return undefined;
    const s = await core.readNamespacedSecret({ name: secret, namespace: name }).catch(() => undefined);
    return s?.data?.token ? true : undefined;
  });
}

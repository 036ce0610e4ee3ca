/**
 * Secrets: read one or several, and summarize them for people. A Secret's data holds key
 * material: only the summary (name, type, data keys) is ever printed or logged.
 */
import { CoreV1Api, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { makeClient, statusCode } from '../transport/client.js';

/** What may be shown of a Secret: never its values. */
export interface SecretSummary {
  name: string;
  namespace: string;
  type: string;
  keys: string[];
}

export function summarizeSecret(s: Pick<V1Secret, 'metadata' | 'type' | 'data'>): SecretSummary {
  return {
    name: s.metadata?.name ?? '',
    namespace: s.metadata?.namespace ?? '',
    type: s.type ?? 'Opaque',
    keys: Object.keys(s.data ?? {}).sort(),
  };
}

/** Secret `namespace/name`; rejects when it cannot be read (a 404 included). */
export function readSecret(kc: KubeConfig, namespace: string, name: string): Promise<V1Secret> {
  return makeClient(kc, CoreV1Api).readNamespacedSecret({ name, namespace });
}

/** The Secrets of `names` that exist in `namespace`, by name (read one after another; a 404 is left out). */
export async function readSecrets(kc: KubeConfig, namespace: string, names: readonly string[]): Promise<Record<string, V1Secret>> {
  const core = makeClient(kc, CoreV1Api);
  const found: Record<string, V1Secret> = {};
  for (const name of names) {
    try {
      found[name] = await core.readNamespacedSecret({ name, namespace });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
  }
  return found;
}

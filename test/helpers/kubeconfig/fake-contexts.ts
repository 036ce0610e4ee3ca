/** Kubeconfig files and output shared by the output and completion tests. */
import fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

/** A KubeConfig of one context whose API server is a closed port (connections are refused at once). */
export function unreachableKubeConfig(context: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: context, server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: context, cluster: context, user: 'u' }],
    currentContext: context,
  });
  return kc;
}

/**
 * Writes a kubeconfig whose contexts all point at a closed port (connections are refused at
 * once), the first one current.
 */
export function writeUnreachableKubeconfig(file: string, contexts: string[]): string {
  fs.writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }],
      users: [{ name: 'u', user: { token: 't' } }],
      contexts: contexts.map((name) => ({ name, context: { cluster: 'c', user: 'u' } })),
      'current-context': contexts[0],
    }),
  );
  return file;
}

/** Times (ISO stamps, latencies, ages) differ between two runs: the same placeholder in both. */
export function timeless(value: unknown): unknown {
  if (typeof value === 'string') return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value) ? '<time>' : value;
  if (Array.isArray(value)) return value.map(timeless);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        /latency|elapsed|Ms$/i.test(k) && typeof v === 'number' ? 0 : k === 'age' ? '<age>' : timeless(v),
      ]),
    );
  return value;
}

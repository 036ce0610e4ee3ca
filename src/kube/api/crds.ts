/** CustomResourceDefinitions: waiting until the server serves what they define. */
import type { KubeConfig } from '@kubernetes/client-node';
import { waitFor } from '../watch/wait.js';

interface CrdJson {
  metadata?: { name?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

export interface EstablishedWait {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (detail: string) => void;
}

/**
 * Waits (a list and a watch, no polling) until every CRD named is Established, i.e. its kinds
 * are served; resolves with the last detail (`3/3 Established`).
 */
export function waitEstablished(kc: KubeConfig, names: ReadonlySet<string>, opts: EstablishedWait): Promise<string> {
  return waitFor<CrdJson>({
    kc,
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    timeoutMs: opts.timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
    check: (items) => {
      const established = items.filter(
        (c) => names.has(c.metadata?.name ?? '') && c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True'),
      );
      return { done: established.length === names.size, detail: `${established.length}/${names.size} Established` };
    },
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
}

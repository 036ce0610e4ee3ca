/**
 * The eviction API: which version the server offers (found as kubectl's drain finds it), an
 * eviction through it, and what a refused eviction says (its status code, the causes of a 403).
 */
import { ApisApi, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { makeClient, statusCode } from '../transport/client.js';
import { evictionVersionFrom, type EvictionVersion } from '../api/discovery.js';
import { deleteOptionsBody, type PodDeleteOptions } from './pod-ops.js';

const REQUEST_TIMEOUT_MS = 30_000;

/** The eviction API the server offers (the pods/eviction subresource in core v1 discovery). */
export async function evictionVersionOf(kc: KubeConfig): Promise<EvictionVersion> {
  const [groups, core] = await Promise.all([
    makeClient(kc, ApisApi, REQUEST_TIMEOUT_MS).getAPIVersions(),
    makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).getAPIResources(),
  ]);
  const policy = groups.groups.find((g) => g.name === 'policy');
  return evictionVersionFrom(core, policy?.versions.map((v) => v.version) ?? []);
}

/**
 * Evicts the pod through the eviction API of `version` (not 'none'). Errors are client-node's:
 * 429 when a budget (or the server's rate limit) refuses, 404/409 when the pod is gone or
 * replaced, 500 when several budgets cover it.
 */
export async function evictPod(
  kc: KubeConfig,
  version: Exclude<EvictionVersion, 'none'>,
  namespace: string,
  name: string,
  o: PodDeleteOptions,
): Promise<void> {
  await makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).createNamespacedPodEviction({
    name,
    namespace,
    body: { apiVersion: version, kind: 'Eviction', metadata: { name, namespace }, deleteOptions: deleteOptionsBody(o) },
  });
}

/** No answer, or a server error that may go away: worth a retry. */
export function isTransient(err: unknown): boolean {
  const code = statusCode(err);
  return code === undefined || code === 500 || code === 502 || code === 503 || code === 504;
}

/** The reasons of a Status error's causes (e.g. NamespaceTerminating for a refused eviction). */
export function causeReasons(err: unknown): string[] {
  let body: unknown = (err as { body?: unknown })?.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return [];
    }
  }
  const causes = (body as { details?: { causes?: { reason?: string; type?: string }[] } })?.details?.causes ?? [];
  return causes.map((c) => c.reason ?? c.type ?? '');
}

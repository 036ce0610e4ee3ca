/** SelfSubjectAccessReviews: may the current user do this? One review per permission. */
import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_TIMEOUT_MS, describeError, makeClient } from '../transport/client.js';

/** One permission, asked of the API server as a SelfSubjectAccessReview. */
export interface Permission {
  /** API group; `''` for the core group. */
  group: string;
  /** Plural resource, e.g. `statefulsets`. */
  resource: string;
  verb: string;
  /** Namespace the permission is needed in; omitted for cluster-scoped resources or all namespaces. */
  namespace?: string;
  /** Subresource, e.g. `status` or `eviction`. */
  subresource?: string;
}

/** The answer to one SelfSubjectAccessReview. */
export interface AccessResult {
  permission: Permission;
  allowed: boolean;
  /** Set when the review itself failed: the permission is unknown. */
  error?: string;
}

/** Runs `fn` over `items` with at most `limit` in flight, results in input order. */
async function mapLimit<T, U>(items: readonly T[], limit: number, fn: (item: T) => Promise<U>): Promise<U[]> {
  const out = new Array<U>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One SelfSubjectAccessReview per permission (8 in flight); a review that fails is an `error`, in one line. */
export async function reviewPermissions(
  kc: KubeConfig,
  permissions: readonly Permission[],
  timeoutMs: number = DEFAULT_TIMEOUT_MS,
): Promise<AccessResult[]> {
  const api = makeClient(kc, AuthorizationV1Api, timeoutMs);
  return mapLimit(permissions, 8, async (permission) => {
    try {
      const review = await api.createSelfSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: {
            resourceAttributes: {
              group: permission.group,
              resource: permission.resource,
              verb: permission.verb,
              ...(permission.namespace ? { namespace: permission.namespace } : {}),
              ...(permission.subresource ? { subresource: permission.subresource } : {}),
            },
          },
        },
      });
      return { permission, allowed: review.status?.allowed === true };
    } catch (err) {
      return { permission, allowed: false, error: describeError(err).split('\n')[0]!.trim() };
    }
  });
}

/**
 * Every listable resource a server offers (discovery: `/api/v1`, `/apis` and each group's
 * preferred version), and the objects of one of them, listed across all namespaces as plain
 * JSON. The backup reads a control plane through these two.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { makeJsonClient, statusCode } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';

/** One resource of a group version, as discovery names it. */
export interface ApiResource {
  /** '' for the core group. */
  group: string;
  version: string;
  /** The plural, e.g. `deployments`. */
  resource: string;
  kind: string;
  namespaced: boolean;
}

/** An object as the server sends it (apiVersion and kind filled in). */
export interface ApiObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [field: string]: unknown };
  [field: string]: unknown;
}

interface ResourceList {
  resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[];
}

interface GroupList {
  groups?: { name: string; preferredVersion?: { version: string } }[];
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(r: Pick<ApiResource, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** The resources of one discovery document that can be listed (no subresources). */
export function listable(group: string, version: string, list: ResourceList): ApiResource[] {
  return (list.resources ?? [])
    .filter((r) => !r.name.includes('/') && (r.verbs ?? []).includes('list'))
    .map((r) => ({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced }));
}

/**
 * Every listable resource of the core group and of each group's preferred version. A group
 * whose server does not answer (an aggregated API that is down: 503) is left out and named.
 */
export async function listableResources(kc: KubeConfig, timeoutMs = 10_000): Promise<{ resources: ApiResource[]; unavailable: string[] }> {
  const client = makeJsonClient(kc, timeoutMs);
  const [core, groups] = await Promise.all([client.get<ResourceList>('/api/v1'), client.get<GroupList>('/apis')]);
  const unavailable: string[] = [];
  const perGroup = await Promise.all(
    (groups.groups ?? []).map(async (g) => {
      const version = g.preferredVersion?.version;
      if (!version) return [];
      try {
        return listable(g.name, version, await client.get<ResourceList>(`/apis/${g.name}/${version}`));
      } catch (err) {
        const code = statusCode(err);
        if (code === 503 || code === 404) {
          unavailable.push(`${g.name}/${version}`);
          return [];
        }
        throw err;
      }
    }),
  );
  return { resources: [...listable('', 'v1', core), ...perGroup.flat()], unavailable };
}

/** Every object of a resource, in all namespaces, read from etcd page by page. */
export async function listObjects(kc: KubeConfig, r: ApiResource, timeoutMs = 30_000): Promise<ApiObject[]> {
  const path = r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/v1/${r.resource}`;
  const apiVersion = apiVersionOf(r);
  const { items } = await listJsonPaged<ApiObject, ApiObject>(makeJsonClient(kc, timeoutMs), path, {}, (item) => ({
    ...item,
    apiVersion,
    kind: r.kind,
  }));
  return items;
}

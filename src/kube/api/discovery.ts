import type { KubeConfig, V1APIGroupList, V1APIResourceList, VersionInfo } from '@kubernetes/client-node';
import { makeJsonClient, type JsonClient } from '../transport/client.js';

export interface Discovery {
  version: string;
  apiGroups: string[];
  evictionVersion: EvictionVersion;
}

/** A Kubernetes version reduced to major and minor (what support tables and version skew compare). */
export interface KubeMinor {
  major: number;
  minor: number;
}

/**
 * Major and minor of a gitVersion, tolerating the suffixes providers add
 * (`v1.28.3-gke.1286000`, `v1.27.4+k3s1`, `v1.26.10-eks-e71965b`, `1.25`).
 * Undefined when the text holds no version.
 */
export function parseKubeVersion(version: string): KubeMinor | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * Server gitVersion (e.g. v1.20.2); also the cheapest authenticated round trip. Discovery is
 * read as the plain JSON it is (makeJsonClient), not through client-node's generated API
 * classes: a one-shot `status` then never loads their ~2.4 MB of code (see src/build.ts).
 */
export async function serverVersion(kc: KubeConfig, timeoutMs: number, client = makeJsonClient(kc, timeoutMs)): Promise<string> {
  const info = await client.get<VersionInfo>('/version');
  return info.gitVersion;
}

/**
 * Why the API server says it cannot serve requests (GET /readyz, open to every user since
 * 1.16): its failed checks in one line ("etcd failed"). Undefined when it is ready, or when it
 * cannot tell (no /readyz before 1.16, or a server that does not let this user read it).
 * Throws when /readyz does not answer (e.g. timed out).
 */
export async function notReadyReason(client: JsonClient): Promise<string | undefined> {
  const { status, text } = await client.getText('/readyz');
  return readyzVerdict(status, text);
}

/** The answer of /readyz read: undefined (ready, or cannot tell), else its failed checks ("etcd failed"). */
export function readyzVerdict(status: number, text: string): string | undefined {
  if (status === 200 || status === 401 || status === 403 || status === 404) return undefined;
  const failed = text
    .split('\n')
    .filter((l) => l.startsWith('[-]'))
    .map((l) =>
      l
        .slice(3)
        .replace(/: reason withheld$/, '')
        .trim(),
    );
  return failed.length > 0 ? failed.join(', ') : `/readyz answered HTTP ${status}`;
}

/**
 * Which eviction API the server offers, decided as kubectl's drain does: the `pods/eviction`
 * subresource in core v1 discovery names its group and version (policy/v1beta1 before 1.22).
 */
export function evictionVersionFrom(coreResources: V1APIResourceList, policyVersions: string[]): EvictionVersion {
  const eviction = coreResources.resources.find((r) => r.name === 'pods/eviction');
  if (!eviction) return 'none';
  if (eviction.group === 'policy' && (eviction.version === 'v1' || eviction.version === 'v1beta1')) {
    return `policy/${eviction.version}`;
  }
  if (policyVersions.includes('v1')) return 'policy/v1';
  if (policyVersions.includes('v1beta1')) return 'policy/v1beta1';
  return 'none';
}

export async function discover(kc: KubeConfig, timeoutMs: number): Promise<Discovery> {
  const client = makeJsonClient(kc, timeoutMs);
  const [version, groups, core] = await Promise.all([
    serverVersion(kc, timeoutMs, client),
    client.get<V1APIGroupList>('/apis'),
    client.get<V1APIResourceList>('/api/v1'),
  ]);
  const policy = groups.groups.find((g) => g.name === 'policy');
  return {
    version,
    apiGroups: groups.groups.map((g) => g.name),
    evictionVersion: evictionVersionFrom(core, policy?.versions.map((v) => v.version) ?? []),
  };
}

/** Which eviction API a server offers (kubectl's drain discovers the same). */
export type EvictionVersion = 'policy/v1' | 'policy/v1beta1' | 'none';

/** Names of the API groups the server offers (`GET /apis`). */
export async function apiGroupNames(kc: KubeConfig, timeoutMs: number): Promise<string[]> {
  const res = await makeJsonClient(kc, timeoutMs).get<{ groups?: { name: string }[] }>('/apis');
  return (res.groups ?? []).map((g) => g.name);
}

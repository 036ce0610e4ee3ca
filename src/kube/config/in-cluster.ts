/**
 * The in-cluster credentials a pod gets, read as kubectl reads them when no kubeconfig is found:
 * the API server from KUBERNETES_SERVICE_HOST/PORT, the service account's token (read for every
 * request, so a rotated token is picked up) and CA under /var/run/secrets/kubernetes.io/serviceaccount.
 * FLEETDECK_SERVICEACCOUNT_ROOT prefixes that path, for a runtime that cannot mount it there.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Cluster, Context } from '@kubernetes/client-node';
import type { KubeUser } from '../transport/credentials.js';

export const IN_CLUSTER_CONTEXT = 'in-cluster';
export const SERVICEACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterConfig {
  cluster: Cluster;
  user: KubeUser;
  context: Context;
  /** The pod's namespace (the service account's). */
  namespace?: string;
}

/** The service account's directory (under FLEETDECK_SERVICEACCOUNT_ROOT when set). */
export function serviceAccountDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.FLEETDECK_SERVICEACCOUNT_ROOT;
  return root ? path.join(root, SERVICEACCOUNT_DIR) : SERVICEACCOUNT_DIR;
}

/** The pod's credentials, or undefined outside a pod (no service host, or no token file). */
export function inClusterConfig(env: NodeJS.ProcessEnv = process.env): InClusterConfig | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) return undefined;
  const dir = serviceAccountDir(env);
  const tokenFile = path.join(dir, 'token');
  if (!fs.existsSync(tokenFile)) return undefined;
  const server = `https://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  let namespace: string | undefined;
  try {
    namespace = fs.readFileSync(path.join(dir, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    namespace = undefined;
  }
  const context: Context = {
    name: IN_CLUSTER_CONTEXT,
    cluster: IN_CLUSTER_CONTEXT,
    user: IN_CLUSTER_CONTEXT,
    ...(namespace ? { namespace } : {}),
  };
  return {
    cluster: { name: IN_CLUSTER_CONTEXT, server, caFile: path.join(dir, 'ca.crt'), skipTLSVerify: false },
    user: { name: IN_CLUSTER_CONTEXT, tokenFile },
    context,
    ...(namespace ? { namespace } : {}),
  };
}

/**
 * Whether a kube context is the fleetdeck sandbox: its cluster (API server URL and certificate
 * authority) is one of the clusters in the kubeconfig a running sandbox wrote. Sandboxes are
 * found by their state file: in the sandbox directory (`FLEETDECK_SANDBOX_DIR`, else the default
 * one) and beside each kubeconfig file that was read (`--kubeconfig DIR/kubeconfig` of
 * `sandbox up --dir DIR`). A copy of that kubeconfig elsewhere is not recognised: its clusters
 * may point anywhere by then.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { readState, sandboxDir } from './state.js';

interface ClusterId {
  server: string;
  ca: string;
}

const norm = (pem: string) => pem.replace(/\r/g, '').trim();

function fromBase64(data: string | undefined): string {
  return data ? norm(Buffer.from(data, 'base64').toString('utf8')) : '';
}

function readCa(file: string | undefined): string {
  if (!file) return '';
  try {
    return norm(fs.readFileSync(file, 'utf8'));
  } catch {
    return '';
  }
}

/** The clusters of the kubeconfigs the sandbox in `dir` wrote (none when no sandbox is recorded there). */
function sandboxClusters(dir: string): ClusterId[] {
  const state = readState(dir);
  if (!state || state.phase === 'stopping') return [];
  const out: ClusterId[] = [];
  for (const file of [state.kubeconfig, state.readOnlyKubeconfig]) {
    let doc: unknown;
    try {
      doc = parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    const clusters = (doc as { clusters?: { cluster?: Record<string, string> }[] } | null)?.clusters ?? [];
    for (const c of clusters) {
      const server = c.cluster?.server;
      if (server) out.push({ server, ca: fromBase64(c.cluster?.['certificate-authority-data']) });
    }
  }
  return out;
}

/** The directories where a sandbox may be recorded, for the kubeconfig files that were read. */
export function sandboxDirsFor(kubeconfigFiles: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set([sandboxDir(undefined, env), ...kubeconfigFiles.map((f) => path.dirname(path.resolve(f)))])];
}

/**
 * Whether the context `kc` is set to (a KubeConfig for one context) reaches one of the
 * sandboxes recorded in `dirs`: same API server URL and same certificate authority.
 */
export function isSandboxContext(kc: KubeConfig, dirs: readonly string[]): boolean {
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) return false;
  const ca = cluster.caData ? fromBase64(cluster.caData) : readCa(cluster.caFile);
  if (!ca) return false;
  return dirs.some((d) => sandboxClusters(d).some((c) => c.server === cluster.server && c.ca === ca));
}

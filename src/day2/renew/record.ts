/**
 * The renewal's progress, kept in the hosting cluster beside the Secrets (ConfigMap
 * `fleetdeck-cert-renewal`): which certificates, how far it got, and which pods were running
 * with the old certificates when it started. A run killed mid-way reads it back and finishes the
 * same renewal; no key material is ever written to it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Applier, type Manifest } from '../../kube/api/apply.js';
import { CERT_SECRET_LABELS } from '../../install/certs/specs.js';

export const RECORD_NAME = 'fleetdeck-cert-renewal';

export interface RenewRecord {
  /** `started`: recorded, Secrets not yet all written; `secrets`: Secrets written, restarts and kubeconfigs to go; `done`. */
  phase: 'started' | 'secrets' | 'done';
  /** Leaf ids being renewed. */
  certs: string[];
  startedAt: string;
  /** Per component id: the UIDs of its pods that run with the old certificates. */
  stalePods: Record<string, string[]>;
  /** Per workload context: the UIDs of the agent pods that run with the old init kubeconfig. */
  staleAgents: Record<string, string[]>;
  finishedAt?: string;
}

function manifest(namespace: string, record?: RenewRecord): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: RECORD_NAME, namespace, labels: { ...CERT_SECRET_LABELS } },
    ...(record ? { data: { renewal: JSON.stringify(record, null, 2) } } : {}),
  } as Manifest;
}

/** The record in `namespace`, or undefined when there is none (or it does not parse). */
export async function readRecord(kc: KubeConfig, namespace: string): Promise<RenewRecord | undefined> {
  const cm = await new Applier(kc).read<Manifest & { data?: Record<string, string> }>(manifest(namespace));
  const text = cm?.data?.renewal;
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as RenewRecord;
    return Array.isArray(r.certs) && typeof r.phase === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

export async function writeRecord(kc: KubeConfig, namespace: string, record: RenewRecord): Promise<void> {
  await new Applier(kc).apply(manifest(namespace, record));
}

/** True while a renewal was started and not finished: the next run continues it. */
export function unfinished(r: RenewRecord | undefined): r is RenewRecord {
  return !!r && r.phase !== 'done';
}

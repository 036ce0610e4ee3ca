/**
 * A CA rotation's progress, kept in the renewal record ConfigMap (`fleetdeck-cert-renewal`,
 * data key `rotation`, beside a leaf renewal's `renewal`): which CAs, which phase, whether the
 * phase's Secrets are written, and which pods still run with the previous phase's files. No
 * key material: the new CAs' keys live only in their `-next` Secrets.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Applier, type Manifest } from '../../../kube/api/apply.js';
import { CERT_SECRET_LABELS, type CaField } from '../../../install/certs/specs.js';
import { RECORD_NAME } from '../record.js';
import type { RotationPhase } from './bundle.js';

export interface RotationRecord {
  cas: CaField[];
  phase: RotationPhase | 'done';
  /** The phase's Secrets are written: restarts, kubeconfigs and agents to go. */
  written: boolean;
  startedAt: string;
  /** Per component id: pods that run with the previous phase's files (taken when the phase starts). */
  stalePods: Record<string, string[]>;
  /** Per workload context: agent pods that run with the previous init kubeconfig. */
  staleAgents: Record<string, string[]>;
  finishedAt?: string;
}

export const PHASES: readonly RotationPhase[] = ['bundle', 'leaves', 'drop'];

/** The phase after `phase` (`done` after `drop`). */
export function nextPhase(phase: RotationPhase): RotationPhase | 'done' {
  return PHASES[PHASES.indexOf(phase) + 1] ?? 'done';
}

/** The record parsed, or undefined when it is missing or not a rotation record. */
export function parseRotation(text: string | undefined): RotationRecord | undefined {
  if (!text) return undefined;
  try {
    const r = JSON.parse(text) as RotationRecord;
    return Array.isArray(r.cas) && [...PHASES, 'done'].includes(r.phase) ? r : undefined;
  } catch {
    return undefined;
  }
}

type ConfigMap = Manifest & { data?: Record<string, string> };

const ref = (namespace: string): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: RECORD_NAME, namespace, labels: { ...CERT_SECRET_LABELS } },
});

export async function readRotation(kc: KubeConfig, namespace: string): Promise<RotationRecord | undefined> {
  const cm = await new Applier(kc).read<ConfigMap>(ref(namespace));
  return parseRotation(cm?.data?.rotation);
}

/** Writes the rotation record, keeping the ConfigMap's other keys (a leaf renewal's record). */
export async function writeRotation(kc: KubeConfig, namespace: string, record: RotationRecord): Promise<void> {
  const a = new Applier(kc);
  const cm = await a.read<ConfigMap>(ref(namespace));
  await a.apply({ ...ref(namespace), data: { ...(cm?.data ?? {}), rotation: JSON.stringify(record, null, 2) } });
}

/** True while a rotation was started and not finished: the next run continues it. */
export function rotationUnfinished(r: RotationRecord | undefined): r is RotationRecord {
  return !!r && r.phase !== 'done';
}

/**
 * PodDisruptionBudgets: listed with the policy version that goes with the eviction API, which
 * pods a budget covers (as the eviction API decides it), and a small reference to one.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { makeJsonClient } from '../transport/client.js';
import type { EvictionVersion } from '../api/discovery.js';
import { listJsonPaged } from '../watch/list.js';
import type { PodObject } from './pod-ops.js';
import { isEmptySelector, labelSelectorMatches, type LabelSelector } from '../api/selector.js';

const REQUEST_TIMEOUT_MS = 30_000;

/** A PDB as read from the server (policy/v1 or policy/v1beta1 JSON). */
export interface PdbObject {
  apiVersion?: string;
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { selector?: LabelSelector | null };
  status?: { disruptionsAllowed?: number; observedGeneration?: number };
}

export interface PdbRef {
  namespace: string;
  name: string;
  disruptionsAllowed: number;
}

/** PodDisruptionBudgets (of one namespace, or all), read with the policy version that goes with the eviction version. */
export async function listPdbs(kc: KubeConfig, version: EvictionVersion, namespace?: string): Promise<PdbObject[]> {
  const gv = version === 'policy/v1' ? 'policy/v1' : 'policy/v1beta1';
  const path = namespace ? `/apis/${gv}/namespaces/${namespace}/poddisruptionbudgets` : `/apis/${gv}/poddisruptionbudgets`;
  const client = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const res = await listJsonPaged<PdbObject, PdbObject>(client, path, {}, (p) => ({ ...p, apiVersion: gv }));
  return res.items;
}

/**
 * Whether a PDB covers a pod, as the eviction API decides it: same namespace, selector matches.
 * In policy/v1beta1 an empty selector matches no pod (in policy/v1 every pod of the namespace):
 * `apiVersion` is the version the PDB was read with.
 */
export function pdbSelectsPod(pdb: PdbObject, pod: PodObject, apiVersion = pdb.apiVersion ?? 'policy/v1'): boolean {
  if ((pdb.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) return false;
  const sel = pdb.spec?.selector;
  if (!sel) return false;
  if (isEmptySelector(sel) && apiVersion === 'policy/v1beta1') return false;
  return labelSelectorMatches(sel, pod.metadata?.labels);
}

export function pdbRef(pdb: PdbObject): PdbRef {
  return {
    namespace: pdb.metadata?.namespace ?? '',
    name: pdb.metadata?.name ?? '',
    disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0,
  };
}

/** "PodDisruptionBudget ns/name (N disruptions allowed)". */
export const describePdb = (p: PdbRef) => `PodDisruptionBudget ${p.namespace}/${p.name} (${p.disruptionsAllowed} disruptions allowed)`;

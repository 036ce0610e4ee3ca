/**
 * The backup: every listable resource of the control plane found by discovery, the objects of
 * those it backs up read, each kept (cleaned) or skipped with the reason, and a summary per
 * kind. Reads only: nothing in the cluster changes.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { type ApiObject, type ApiResource, listableResources, listObjects } from '../kube/api/api-resources.js';
import { type BackupChoice, judge } from './clean.js';
import { restoreOrder } from './order.js';
import { backedUp } from './select.js';

/** One row of the summary: a kind, how many of its objects were kept, and skipped (why). */
export interface KindSummary {
  kind: string;
  apiVersion: string;
  objects: number;
  skipped: { reason: string; count: number }[];
}

export interface BackupResult {
  objects: ApiObject[];
  kinds: KindSummary[];
  /** API groups discovery named but whose server did not answer (their objects are not in the backup). */
  unavailable: string[];
}

/** Counts per kind, in the order kinds appear in the restore order; kinds with nothing are left out. */
export function summarize(results: readonly { obj: ApiObject; skip?: string }[]): KindSummary[] {
  const rows = new Map<string, KindSummary>();
  const ordered = restoreOrder(results.map((r) => r.obj));
  for (const obj of ordered) {
    const k = `${obj.apiVersion} ${obj.kind}`;
    if (!rows.has(k)) rows.set(k, { kind: obj.kind, apiVersion: obj.apiVersion, objects: 0, skipped: [] });
  }
  for (const r of results) {
    const row = rows.get(`${r.obj.apiVersion} ${r.obj.kind}`)!;
    if (r.skip === undefined) row.objects++;
    else {
      const s = row.skipped.find((x) => x.reason === r.skip);
      if (s) s.count++;
      else row.skipped.push({ reason: r.skip, count: 1 });
    }
  }
  return [...rows.values()];
}

/** The resources a backup reads: every listable resource of the server that it backs up. */
export async function discoverBackedUp(kc: KubeConfig): Promise<{ resources: ApiResource[]; unavailable: string[] }> {
  const { resources, unavailable } = await listableResources(kc);
  return { resources: resources.filter(backedUp), unavailable };
}

/** Reads the objects of `resources`, each kept (cleaned) or skipped; `onResource` says which resource is being read. */
export async function readBackedUp(
  kc: KubeConfig,
  resources: readonly ApiResource[],
  choice: BackupChoice,
  onResource: (r: ApiResource, index: number) => void = () => {},
): Promise<Omit<BackupResult, 'unavailable'>> {
  const results: { obj: ApiObject; skip?: string }[] = [];
  const kept: ApiObject[] = [];
  for (const [i, r] of resources.entries()) {
    onResource(r, i);
    for (const obj of await listObjects(kc, r)) {
      const verdict = judge(obj, choice);
      if ('keep' in verdict) {
        kept.push(verdict.keep);
        results.push({ obj });
      } else results.push({ obj, skip: verdict.skip });
    }
  }
  return { objects: restoreOrder(kept), kinds: summarize(results) };
}

/** Reads every object the backup keeps, in restore order. `onResource` says which resource is being read. */
export async function runBackup(
  kc: KubeConfig,
  choice: BackupChoice,
  onResource: (r: ApiResource) => void = () => {},
): Promise<BackupResult> {
  const { resources, unavailable } = await discoverBackedUp(kc);
  return { ...(await readBackedUp(kc, resources, choice, onResource)), unavailable };
}

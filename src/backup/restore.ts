/**
 * The restore: a plan first (per object, what applying it would do: create, update or
 * unchanged — a server-side dry run compared with what is live), then only the objects that
 * change applied by server-side apply (field manager fleetdeck), phase by phase, custom
 * resources once their CRDs are Established. Applying is idempotent: a second restore plans
 * everything unchanged and writes nothing, and a restore stopped half-way finishes when run again.
 * A Cluster that exists is left to its agent (keptByItsAgent).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiObject } from '../kube/api/api-resources.js';
import { Applier, type ApplyAction, type Manifest, objectRef, type PlannedAction } from '../kube/api/apply.js';
import { describeError } from '../kube/transport/client.js';
import { waitEstablished } from '../kube/api/crds.js';
import { type FieldChange, fieldChanges } from './changes.js';
import { PHASES, type Phase, phaseOf, restoreOrder } from './order.js';

export interface PlannedObject {
  /** `Kind namespace/name`. */
  ref: string;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  action: PlannedAction;
  /** For an update: the fields it changes, each with its value now and after (a Secret's data hidden). */
  changes?: FieldChange[];
  /** Why an object that differs is left as it is (a Cluster its agent keeps). */
  kept?: string;
  /** After the restore: what the apply did, or `failed`. */
  result?: ApplyAction | 'failed';
  error?: string;
}

export interface RestoreProgress {
  /** Each object once applied (or failed). */
  onApplied?: (p: PlannedObject) => void;
  /** A line while it waits (the CRDs). */
  onWait?: (detail: string) => void;
  signal?: AbortSignal;
  /** Only these phases (default: all); a restore in steps applies the CRDs and namespaces first, then the rest. */
  phases?: readonly Phase[];
}

const CRD_TIMEOUT_MS = 120_000;

/**
 * Nova's Cluster objects are written by the agent of each workload cluster (its zone, region and
 * version as it finds them): a restore creates a missing one, and leaves an existing one as its
 * agent keeps it, as Velero leaves existing objects alone, rather than fight the agent.
 */
export function keptByItsAgent(obj: Pick<ApiObject, 'apiVersion' | 'kind'>): boolean {
  return obj.kind === 'Cluster' && obj.apiVersion.startsWith('cluster.elotl.co/');
}

/** The plan, in restore order: one entry per object of the backup. */
export async function planRestore(kc: KubeConfig, objects: readonly ApiObject[], signal?: AbortSignal): Promise<PlannedObject[]> {
  const applier = new Applier(kc);
  const plan: PlannedObject[] = [];
  for (const obj of restoreOrder(objects)) {
    signal?.throwIfAborted();
    const { name, namespace } = obj.metadata;
    const { action, live, applied } = await applier.planCompared(obj as Manifest);
    const kept = action === 'update' && keptByItsAgent(obj);
    plan.push({
      ref: objectRef(obj),
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      ...(namespace ? { namespace } : {}),
      name,
      action: kept ? 'unchanged' : action,
      ...(action === 'update' && !kept ? { changes: fieldChanges(obj.kind, live, applied) } : {}),
      ...(kept ? { kept: 'exists; kept as its agent reports it' } : {}),
    });
  }
  return plan;
}

/** Counts of a plan's actions. */
export function planCounts(plan: readonly PlannedObject[]): Record<PlannedAction, number> {
  const counts = { create: 0, update: 0, unchanged: 0 };
  for (const p of plan) counts[p.action]++;
  return counts;
}

/**
 * Applies what the plan changes (unchanged objects are not written), phase by phase. Stops at
 * the first failure (that entry's `result` is `failed`, with the error); true when all went through.
 */
export async function runRestore(
  kc: KubeConfig,
  objects: readonly ApiObject[],
  plan: PlannedObject[],
  progress: RestoreProgress = {},
): Promise<boolean> {
  const applier = new Applier(kc);
  const ordered = restoreOrder(objects);
  const crds = new Set(ordered.filter((o) => phaseOf(o) === 'crds').map((o) => o.metadata.name));
  for (const phase of progress.phases ?? PHASES) {
    const todo = ordered.map((obj, i) => ({ obj, p: plan[i]! })).filter(({ obj, p }) => phaseOf(obj) === phase && p.action !== 'unchanged');
    if (todo.length === 0) continue;
    if (phase === 'custom' && crds.size > 0) {
      progress.onWait?.('waiting for the CRDs to be Established');
      await waitEstablished(kc, crds, {
        timeoutMs: CRD_TIMEOUT_MS,
        ...(progress.signal ? { signal: progress.signal } : {}),
        ...(progress.onWait ? { onProgress: progress.onWait } : {}),
      });
    }
    for (const { obj, p } of todo) {
      progress.signal?.throwIfAborted();
      try {
        p.result = (await applier.apply(obj as Manifest)).action;
      } catch (err) {
        p.result = 'failed';
        p.error = describeError(err);
        progress.onApplied?.(p);
        return false;
      }
      progress.onApplied?.(p);
    }
  }
  return true;
}

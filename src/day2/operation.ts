/**
 * The one contract of a day-2 operation (back up, restore, renew certificates, upgrade, roll
 * back), as the Install tab's Day 2 page runs it: a label, the inputs it asks for (with their
 * defaults), a read-only plan shown first, then a run whose steps are checklist rows (the same
 * rows the command prints). An operation is a workflow: no store, feed or screen; the Day 2
 * feed calls `plan` and `run` and puts what they say into the store.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CheckItem } from '../checklist/checklist.js';
import type { Target, WorkloadTarget } from '../install/plan.js';

/** The fleet around the control plane: the hosting cluster, the workload clusters, the namespace, the fleet file. */
export interface Day2Fleet {
  hosting: Target;
  workloads: WorkloadTarget[];
  namespace: string;
  /** The fleet file: the install's kubeconfig and backups are beside it. */
  fleetFile: string;
}

/** The control plane an operation works on: its context and KubeConfig, and its fleet. */
export interface Day2Target {
  context: string;
  kc: KubeConfig;
  fleet?: Day2Fleet;
}

/** One value the operation asks for before its plan (a file, a bundle directory), with its default. */
export interface OperationInput {
  key: string;
  label: string;
  default: string;
}

export type OperationInputs = Record<string, string>;

/** The plan: its lines, and whether running it would do anything. */
export interface OperationPlan {
  lines: string[];
  todo: boolean;
}

/** How the run ended: its rows as they finished, one summary line, and what to do when it failed. */
export interface OperationOutcome {
  ok: boolean;
  steps: CheckItem[];
  summary: string;
  hint?: string;
}

export interface Day2Operation {
  id: string;
  label: string;
  /** It changes the cluster: confirming its plan is refused under --read-only with this gate line's action. */
  writes?: { action: string };
  /** The inputs asked for, with their defaults as of now (e.g. the last backup's file). */
  inputs(): OperationInput[];
  /** Why it cannot run in this build (its module is absent); the page shows this instead of a plan. */
  unavailable?: string;
  /** Reads only: what running it would do. */
  plan(target: Day2Target, inputs: OperationInputs, signal: AbortSignal): Promise<OperationPlan>;
  /** Does it, publishing its rows on every change. A failure is a failed row, not a throw (the outcome says so). */
  run(
    target: Day2Target,
    inputs: OperationInputs,
    onProgress: (items: CheckItem[]) => void,
    signal: AbortSignal,
  ): Promise<OperationOutcome>;
}

/** An entry of the menu whose module is not in this build: listed, never planned nor run. */
export function notAvailable(id: string, label: string, reason = 'not available in this build'): Day2Operation {
  const refuse = () => Promise.reject(new Error(`${label}: ${reason}`));
  return { id, label, unavailable: reason, inputs: () => [], plan: refuse, run: refuse };
}

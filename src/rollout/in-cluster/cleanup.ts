/**
 * `rollout cleanup`: the runner Jobs that finished (or whose rollout is over or gone), and the
 * runner's account and RBAC once no rollout runs in the cluster (a later in-cluster run applies
 * them again). A namespace goes only when fleetdeck created it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Applier, objectRef } from '../../kube/api/apply.js';
import { deleteObjects, listRunnerJobs } from '../../kube/records/runner-job.js';
import { listRollouts } from '../state.js';
import { MANAGED_BY_LABEL, ROLLOUT_LABEL } from '../types.js';
import { runnerAccess, type RunnerSettings } from './manifests.js';

/** Phases a rollout can still be run from. */
const UNFINISHED = new Set(['Pending', 'Running', 'Paused', 'Failed']);

export interface CleanupPlan {
  jobs: { namespace: string; name: string; rollout: string; why: string }[];
  /** The runner's account and RBAC go too: no in-cluster rollout is left unfinished, and some of it is there. */
  access: boolean;
  /** Which of the account's objects are in the cluster (`ClusterRole fleetdeck-rollout-runner`…; the namespace only when fleetdeck made it). */
  accessObjects: string[];
  /** Rollouts whose runner runs (or is about to): they keep the account. */
  keptFor: string[];
}

/** What `rollout cleanup` removes: finished Jobs and Jobs of finished rollouts; the account when nothing needs it. */
export async function cleanupPlan(kc: KubeConfig, s: RunnerSettings): Promise<CleanupPlan> {
  const [jobs, rollouts] = await Promise.all([
    listRunnerJobs(kc, s.namespace, `${MANAGED_BY_LABEL}=fleetdeck,${ROLLOUT_LABEL}`),
    listRollouts(kc),
  ]);
  const byName = new Map(rollouts.map((r) => [r.spec.name, r]));
  const out: CleanupPlan = { jobs: [], access: false, accessObjects: [], keptFor: [] };
  for (const j of jobs) {
    if (j.deleting) continue;
    const r = byName.get(j.rollout);
    const why = !r
      ? 'its rollout is gone'
      : j.finished
        ? `finished (${j.succeeded ? 'succeeded' : 'failed'})`
        : !UNFINISHED.has(r.phase)
          ? `rollout ${r.phase}`
          : undefined;
    if (why) out.jobs.push({ namespace: j.namespace, name: j.name, rollout: j.rollout, why });
  }
  // A paused rollout resumed in the cluster gets the account again: only a running one keeps it.
  const running = new Set(jobs.filter((j) => !j.deleting && !j.finished && !out.jobs.some((d) => d.name === j.name)).map((j) => j.rollout));
  for (const r of rollouts) if (r.runner && (r.phase === 'Running' || r.phase === 'Pending')) running.add(r.spec.name);
  out.keptFor = [...running].sort();
  out.accessObjects = out.keptFor.length === 0 ? await accessHere(kc, s) : [];
  out.access = out.accessObjects.length > 0;
  return out;
}

/** The runner's account and RBAC objects in the cluster now; its namespace only when fleetdeck created it. */
async function accessHere(kc: KubeConfig, s: RunnerSettings): Promise<string[]> {
  const applier = new Applier(kc);
  const objects = runnerAccess(s.namespace, true);
  // A read that fails (forbidden, timed out) is said, never taken for "not there".
  const found = await Promise.all(objects.map((o) => applier.read(o)));
  // One already being deleted (a namespace terminating) is as good as gone.
  const here = (i: number) => found[i] !== undefined && !found[i].metadata.deletionTimestamp;
  return objects
    .filter((o, i) => here(i) && (o.kind !== 'Namespace' || found[i]!.metadata.labels?.[MANAGED_BY_LABEL] === 'fleetdeck'))
    .map(objectRef);
}

/** Carries the plan out; what was deleted. */
export async function cleanup(kc: KubeConfig, plan: CleanupPlan, s: RunnerSettings): Promise<string[]> {
  const applier = new Applier(kc);
  const gone: string[] = [];
  for (const j of plan.jobs) {
    if (await applier.delete({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: j.name, namespace: j.namespace } }))
      gone.push(`Job ${j.namespace}/${j.name}`);
  }
  if (!plan.access) return gone;
  const objects = runnerAccess(s.namespace, true);
  const ns = objects[0]!;
  const current = await applier.read(ns);
  // The namespace goes only when fleetdeck created it (its label), never one it was given.
  const ours = current?.metadata.labels?.[MANAGED_BY_LABEL] === 'fleetdeck';
  gone.push(...(await deleteObjects(kc, ours ? objects : objects.slice(1))));
  return gone;
}

/**
 * What the in-cluster commands take and print: the runner's namespace and image from the flags,
 * the dry run's RBAC lines, where a started run is and how to follow it, the cleanup's plan.
 */
import type { CleanupPlan } from '../../rollout/in-cluster/cleanup.js';
import type { Started } from '../../rollout/in-cluster/start.js';
import { accessLines, runnerAccess, runnerJob, RUNNER_NAME, type RunnerSettings } from '../../rollout/in-cluster/manifests.js';
import type { RolloutState } from '../../rollout/types.js';
import { write } from './lines.js';

/** What the dry run adds for an in-cluster run: where it runs and the RBAC it creates. */
export function inClusterPlanLines(state: RolloutState, s: RunnerSettings): string[] {
  const job = runnerJob(state, s, 1);
  return [
    '',
    `Runs in the cluster: Job ${s.namespace}/${job.metadata.name} (image ${s.image}) as ServiceAccount ${s.namespace}/${RUNNER_NAME}, which gets:`,
    ...accessLines(runnerAccess(s.namespace, state.spec.replace === 'delete-node')).map((l) => `  ${l}`),
  ];
}

/** Where the run is and how to follow it, after `create`/`resume --in-cluster`. */
export function startedLines(name: string, context: string, s: RunnerSettings, started: Started): string[] {
  const on = started.pod.node ? ` on node ${started.pod.node}` : '';
  return [
    `Rollout ${name} runs in the cluster: Job ${s.namespace}/${started.job}, pod ${started.pod.name}${on}. Nothing more runs here.`,
    `  follow it:  fleetdeck rollout watch ${name} --context ${context}`,
    `  its log:    kubectl logs -n ${s.namespace} job/${started.job} -f --context ${context}`,
    `  stop it:    fleetdeck rollout abort ${name} --context ${context}`,
  ];
}

export function startedJson(name: string, s: RunnerSettings, started: Started): Record<string, unknown> {
  return {
    kind: 'result',
    rollout: name,
    inCluster: { namespace: s.namespace, job: started.job, pod: started.pod.name, node: started.pod.node ?? null },
  };
}

export function cleanupLines(plan: CleanupPlan, s: RunnerSettings): string[] {
  const lines = plan.jobs.map((j) => `  delete Job ${j.namespace}/${j.name}: ${j.why}`);
  lines.push(...plan.accessObjects.map((ref) => `  delete ${ref}`));
  if (plan.keptFor.length) lines.push(`  keep the runner's account and RBAC: in use by ${plan.keptFor.join(', ')}`);
  if (lines.length === 0)
    lines.push(`  nothing to delete: no finished runner Job, and the runner's account is not in namespace ${s.namespace}`);
  return lines;
}

export const writeLines = (lines: readonly string[]) => {
  for (const l of lines) write(l);
};

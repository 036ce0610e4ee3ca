/**
 * In-cluster rollouts: the rollout recorded as for a local run, then run by a Job in the
 * rollout's cluster (`create --in-cluster`, `resume --in-cluster`); `cleanup` removes the Jobs
 * that finished and, once no rollout needs it, the runner's account and RBAC.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { Applier } from '../../kube/apply.js';
import { describeError } from '../../kube/client.js';
import { applyObjects, deleteObjects, listRunnerJobs, waitForRunnerPod, type RunnerPod } from '../../kube/runner-job.js';
import { WaitTimeout } from '../../kube/wait.js';
import {
  accessLines,
  DEFAULT_RUNNER_IMAGE,
  DEFAULT_RUNNER_NAMESPACE,
  runnerAccess,
  runnerJob,
  RUNNER_NAME,
  type RunnerSettings,
} from '../../rollout/in-cluster/manifests.js';
import { listRollouts, updateRollout } from '../../rollout/state.js';
import { MANAGED_BY_LABEL, ROLLOUT_LABEL, type RolloutState } from '../../rollout/types.js';
import { write } from './lines.js';

export interface InClusterFlags {
  runnerNamespace?: string;
  image?: string;
}

/** How long `create --in-cluster` waits for the runner's pod to run. */
export const RUNNER_START_TIMEOUT_MS = 120_000;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The Job's namespace and image from the flags (defaults: fleetdeck-system, the release's image). */
export function runnerSettings(flags: InClusterFlags): RunnerSettings {
  const namespace = flags.runnerNamespace ?? DEFAULT_RUNNER_NAMESPACE;
  if (!DNS_LABEL.test(namespace) || namespace.length > 63)
    throw new UserError(`--runner-namespace "${namespace}" is not a namespace name (lower-case letters, digits and '-')`, 2);
  const image = flags.image ?? DEFAULT_RUNNER_IMAGE;
  if (!image || /\s/.test(image)) throw new UserError(`--image "${image}" is not an image reference`, 2);
  return { namespace, image };
}

/** What the dry run adds for an in-cluster run: where it runs and the RBAC it creates. */
export function inClusterPlanLines(state: RolloutState, s: RunnerSettings): string[] {
  const job = runnerJob(state, s, 1);
  return [
    '',
    `Runs in the cluster: Job ${s.namespace}/${job.metadata.name} (image ${s.image}) as ServiceAccount ${s.namespace}/${RUNNER_NAME}, which gets:`,
    ...accessLines(runnerAccess(s.namespace, state.spec.replace === 'delete-node')).map((l) => `  ${l}`),
  ];
}

/** The runner's objects, without the namespace when it exists already (fleetdeck never takes over a namespace it did not create). */
async function accessToApply(kc: KubeConfig, s: RunnerSettings, deleteNodes: boolean) {
  const objects = runnerAccess(s.namespace, deleteNodes);
  const ns = objects[0]!;
  return (await new Applier(kc).read(ns)) ? objects.slice(1) : objects;
}

/** The RBAC applied, the record told where its runner is, the next attempt's Job created. */
async function createJob(kc: KubeConfig, state: RolloutState, s: RunnerSettings) {
  const name = state.spec.name;
  await applyObjects(kc, await accessToApply(kc, s, state.spec.replace === 'delete-node'));
  const earlier = await listRunnerJobs(kc, s.namespace, `${ROLLOUT_LABEL}=${name}`);
  const job = runnerJob(state, s, earlier.length + 1);
  await updateRollout(kc, name, (st) => {
    st.runner = { namespace: s.namespace, job: job.metadata.name, image: s.image };
    return st;
  });
  await applyObjects(kc, [job]);
  return job;
}

export interface Started {
  job: string;
  pod: RunnerPod;
}

/**
 * Starts a run of the rollout in its cluster: the RBAC applied, the Job created (the next
 * attempt's name), its pod waited for. A pod that cannot start is deleted with its Job (it would
 * start later, unexpected) and said in one line; the rollout stays as it was.
 */
export async function startInCluster(
  kc: KubeConfig,
  state: RolloutState,
  s: RunnerSettings,
  progress: (line: string) => void,
): Promise<Started> {
  const name = state.spec.name;
  const job = await createJob(kc, state, s).catch((err: unknown) => {
    throw err instanceof UserError ? err : new UserError(`cannot start the runner of rollout ${name}: ${describeError(err)}`);
  });
  progress(`Job ${s.namespace}/${job.metadata.name} created; waiting for its pod…`);
  let pod: RunnerPod;
  try {
    pod = await waitForRunnerPod(kc, s.namespace, job.metadata.name, RUNNER_START_TIMEOUT_MS);
  } catch (err) {
    await new Applier(kc).delete(job).catch(() => {});
    const why =
      err instanceof WaitTimeout ? `its pod did not start within ${RUNNER_START_TIMEOUT_MS / 1000} s (${err.detail})` : describeError(err);
    throw new UserError(`the runner of rollout ${name} did not start: ${why}; its Job was deleted and the rollout is unchanged`);
  }
  if (pod.stuck) {
    await new Applier(kc).delete(job).catch(() => {});
    throw new UserError(
      `the runner of rollout ${name} cannot start: pod ${pod.name}: ${pod.stuck}; its Job was deleted and the rollout is unchanged: push the image (see the README) or pass --image, then fleetdeck rollout resume ${name} --in-cluster`,
    );
  }
  return { job: job.metadata.name, pod };
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

export function startedJson(name: string, s: RunnerSettings, started: Started): string {
  return JSON.stringify({
    kind: 'result',
    rollout: name,
    inCluster: { namespace: s.namespace, job: started.job, pod: started.pod.name, node: started.pod.node ?? null },
  });
}

/** Phases a rollout can still be run from. */
const UNFINISHED = new Set(['Pending', 'Running', 'Paused', 'Failed']);

export interface CleanupPlan {
  jobs: { namespace: string; name: string; rollout: string; why: string }[];
  /** The runner's account and RBAC go too: no in-cluster rollout is left unfinished. */
  access: boolean;
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
  const out: CleanupPlan = { jobs: [], access: false, keptFor: [] };
  for (const j of jobs) {
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
  const running = new Set(jobs.filter((j) => !j.finished && !out.jobs.some((d) => d.name === j.name)).map((j) => j.rollout));
  for (const r of rollouts) if (r.runner && (r.phase === 'Running' || r.phase === 'Pending')) running.add(r.spec.name);
  out.keptFor = [...running].sort();
  out.access = out.keptFor.length === 0;
  return out;
}

export function cleanupLines(plan: CleanupPlan, s: RunnerSettings): string[] {
  const lines = plan.jobs.map((j) => `  delete Job ${j.namespace}/${j.name}: ${j.why}`);
  if (plan.access) lines.push(...accessLines(runnerAccess(s.namespace, true)).map((l) => `  delete (where it exists) ${l.split(':')[0]}`));
  else lines.push(`  keep the runner's account and RBAC: in use by ${plan.keptFor.join(', ')}`);
  return lines;
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

export const writeLines = (lines: readonly string[]) => {
  for (const l of lines) write(l);
};

/**
 * Starting a run of a rollout in its cluster (`create`/`resume --in-cluster`, the wizard): the
 * runner's RBAC applied, the record told where its runner is, the next attempt's Job created and
 * its pod waited for.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { Applier } from '../../kube/api/apply.js';
import { describeError } from '../../kube/transport/client.js';
import { applyObjects, listRunnerJobs, waitForRunnerPod, type RunnerPod } from '../../kube/records/runner-job.js';
import { WaitTimeout } from '../../kube/watch/wait.js';
import { updateRollout } from '../state.js';
import { ROLLOUT_LABEL, type RolloutState } from '../types.js';
import { runnerAccess, runnerJob, type RunnerSettings } from './manifests.js';

/** How long a start waits for the runner's pod to run. */
export const RUNNER_START_TIMEOUT_MS = 120_000;

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
    throw new UserError(
      `the runner of rollout ${name} did not start: ${why}; its Job was deleted and the rollout stays ${state.phase}: fix that, then fleetdeck rollout resume ${name} --in-cluster`,
    );
  }
  if (pod.stuck) {
    await new Applier(kc).delete(job).catch(() => {});
    throw new UserError(
      `the runner of rollout ${name} cannot start: pod ${pod.name}: ${pod.stuck}; its Job was deleted and the rollout stays ${state.phase}: push the image (docs/sandbox.md, The runner image) or pass --image, then fleetdeck rollout resume ${name} --in-cluster`,
    );
  }
  return { job: job.metadata.name, pod };
}

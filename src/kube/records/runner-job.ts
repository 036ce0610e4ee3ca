/**
 * The in-cluster runner's objects through the API: applied (server-side apply, idempotent),
 * its Jobs listed and deleted, and the wait for a Job's pod to run (from a watch), which gives
 * up early on what will not resolve by itself (an image that cannot be pulled, a bad config).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Applier, type ApplyResult, type Manifest } from '../api/apply.js';
import { makeJsonClient } from '../transport/client.js';
import { waitFor } from '../watch/wait.js';

export interface RunnerJob {
  name: string;
  namespace: string;
  /** The rollout it runs (its fleetdeck.io/rollout label). */
  rollout: string;
  active: number;
  succeeded: number;
  failed: number;
  /** Complete or Failed (the Job's conditions). */
  finished: boolean;
  /** Being deleted (a cleanup's foreground deletion under way): as good as gone. */
  deleting?: boolean;
  createdAt?: string;
}

interface JobObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; creationTimestamp?: string; deletionTimestamp?: string };
  status?: { active?: number; succeeded?: number; failed?: number; conditions?: { type: string; status: string }[] };
}

/** Applies the objects in order; what each did (created, configured, unchanged). */
export async function applyObjects(kc: KubeConfig, objects: readonly Manifest[], dryRun = false): Promise<ApplyResult[]> {
  const applier = new Applier(kc);
  const out: ApplyResult[] = [];
  for (const o of objects) out.push(await applier.apply(o, { dryRun }));
  return out;
}

/** Deletes the objects that exist (last first, so bindings go before their roles); the ones deleted. */
export async function deleteObjects(kc: KubeConfig, objects: readonly Manifest[]): Promise<string[]> {
  const applier = new Applier(kc);
  const gone: string[] = [];
  for (const o of [...objects].reverse())
    if (await applier.delete(o)) gone.push(`${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);
  return gone;
}

/** The Jobs labelled with a selector in a namespace (every namespace when undefined), oldest first. */
export async function listRunnerJobs(kc: KubeConfig, namespace: string | undefined, labelSelector: string): Promise<RunnerJob[]> {
  const path = namespace ? `/apis/batch/v1/namespaces/${namespace}/jobs` : '/apis/batch/v1/jobs';
  const list = await makeJsonClient(kc).get<{ items: JobObject[] }>(path, { labelSelector });
  return list.items
    .map((j) => {
      const conditions = j.status?.conditions ?? [];
      const job: RunnerJob = {
        name: j.metadata?.name ?? '',
        namespace: j.metadata?.namespace ?? '',
        rollout: j.metadata?.labels?.['fleetdeck.io/rollout'] ?? '',
        active: j.status?.active ?? 0,
        succeeded: j.status?.succeeded ?? 0,
        failed: j.status?.failed ?? 0,
        finished: conditions.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True'),
      };
      if (j.metadata?.deletionTimestamp) job.deleting = true;
      if (j.metadata?.creationTimestamp) job.createdAt = j.metadata.creationTimestamp;
      return job;
    })
    .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.name.localeCompare(b.name));
}

interface PodObject {
  metadata?: { name?: string; resourceVersion?: string };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: {
      state?: { waiting?: { reason?: string; message?: string }; terminated?: { reason?: string; exitCode?: number } };
    }[];
  };
}

/** Reasons a pod stays stuck with until someone changes something. */
const STUCK = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'CreateContainerConfigError', 'CreateContainerError']);

export interface RunnerPod {
  name: string;
  node?: string;
  phase: string;
  /** Why it does not run, when it is stuck (e.g. "ImagePullBackOff: …"). */
  stuck?: string;
}

function podView(p: PodObject): RunnerPod & { detail: string } {
  const name = p.metadata?.name ?? '';
  const phase = p.status?.phase ?? 'Pending';
  const waiting = p.status?.containerStatuses?.[0]?.state?.waiting;
  const unscheduled = p.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const view: RunnerPod & { detail: string } = { name, phase, detail: `pod ${name} ${phase}` };
  if (p.spec?.nodeName) view.node = p.spec.nodeName;
  if (waiting?.reason) {
    view.detail += ` (${waiting.reason})`;
    if (STUCK.has(waiting.reason)) view.stuck = `${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  } else if (unscheduled)
    view.detail += ` (${unscheduled.reason ?? 'Unschedulable'}${unscheduled.message ? `: ${unscheduled.message}` : ''})`;
  return view;
}

/**
 * Waits until a pod of the Job runs (or already finished), or one is stuck; resolves with that
 * pod. Rejects with WaitTimeout (its last detail) when neither happens within `timeoutMs`.
 */
export async function waitForRunnerPod(
  kc: KubeConfig,
  namespace: string,
  job: string,
  timeoutMs: number,
  onProgress?: (detail: string) => void,
): Promise<RunnerPod> {
  let found: RunnerPod | undefined;
  await waitFor<PodObject>({
    kc,
    path: `/api/v1/namespaces/${namespace}/pods`,
    labelSelector: `job-name=${job}`,
    timeoutMs,
    ...(onProgress ? { onProgress } : {}),
    check: (pods) => {
      const views = pods.map(podView);
      const pick = views.find((v) => v.phase !== 'Pending') ?? views.find((v) => v.stuck) ?? views[0];
      if (pick && (pick.phase !== 'Pending' || pick.stuck)) {
        const { detail: _, ...pod } = pick;
        found = pod;
        return { done: true, detail: pick.detail };
      }
      return { done: false, detail: pick?.detail ?? `no pod of Job ${namespace}/${job} yet` };
    },
  });
  return found!;
}

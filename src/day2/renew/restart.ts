/**
 * A control-plane component restarted one replica at a time: each pod that still runs with the
 * old certificates is deleted, its replacement waited for until every replica is Ready again,
 * and the API is checked through the load balancer before the next one.
 */
import { statusCode } from '../../kube/transport/client.js';
import { deletePod } from '../../kube/pods/pod-ops.js';
import { waitApiSettled } from '../../kube/fleet/api-settled.js';
import { waitFor } from '../../kube/watch/wait.js';
import { type RowControl, StepError } from '../../install/runner.js';
import { podsOf, type PodFact } from './pods.js';
import type { Component } from './select.js';
import type { RenewTarget } from './target.js';

const READY_TIMEOUT_MS = 300_000;
const API_TIMEOUT_MS = 120_000;

interface PodJson {
  metadata?: { name?: string; uid?: string; deletionTimestamp?: string };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

const isReady = (p: PodJson) =>
  p.status?.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

const SETTLE_ANSWERS = 3;

/**
 * Waits until the API answers through the load balancer (`inARow` ready answers in a row, a second
 * apart); throws a StepError naming the context when it does not.
 */
export async function checkApi(t: RenewTarget, signal?: AbortSignal, inARow = 1): Promise<void> {
  try {
    await waitApiSettled(t.controlPlane.kc, { inARow, timeoutMs: API_TIMEOUT_MS, ...(signal ? { signal } : {}) });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new StepError(
      `the control plane does not answer through its load balancer: ${err instanceof Error ? err.message : String(err)}`,
      `kubectl --context=${t.hosting.context} -n ${t.namespace} get pods; run the same command again once it answers: it continues where it stopped`,
    );
  }
}

/** Deletes one pod and waits until the component has `desired` Ready replicas again, none of them that pod. */
async function restartOne(
  t: RenewTarget,
  c: Component,
  pod: PodFact,
  desired: number,
  signal?: AbortSignal,
  onProgress?: (d: string) => void,
) {
  await deletePod(t.hosting.kc, t.namespace, pod.name, { uid: pod.uid }).catch((err: unknown) => {
    // Already gone: its replacement is what we wait for.
    if (statusCode(err) !== 404) throw err;
  });
  return waitFor<PodJson>({
    kc: t.hosting.kc,
    path: `/api/v1/namespaces/${t.namespace}/pods`,
    labelSelector: c.selector,
    timeoutMs: READY_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
    check: (items) => {
      const live = items.filter((p) => !p.metadata?.deletionTimestamp && p.metadata?.uid !== pod.uid);
      const ready = live.filter(isReady).length;
      return { done: ready >= desired, detail: `${ready}/${desired} Ready` };
    },
    ...(onProgress ? { onProgress } : {}),
  });
}

/**
 * Restarts the pods of `c` whose UID is in `stale` (those started before the Secrets changed),
 * one at a time; pods started later already have the new certificates and are left alone, so a
 * re-run after an interruption only restarts what is left.
 */
export async function rollComponent(
  t: RenewTarget,
  c: Component,
  stale: readonly string[],
  row: RowControl,
  signal?: AbortSignal,
): Promise<string> {
  const now = await podsOf(t.hosting.kc, t.namespace, c.selector);
  const todo = now.filter((p) => stale.includes(p.uid));
  if (todo.length === 0) return 'every replica already runs with the new certificates';
  const desired = Math.max(now.length, 1);
  for (const pod of todo) {
    const child = row.child(`${c.id}:${pod.name}`, `${pod.name} restarted`);
    child.set('running', 'deleting');
    try {
      await restartOne(t, c, pod, desired, signal, (d) => child.progress(d));
      child.progress('checking the API through the load balancer');
      await checkApi(t, signal, SETTLE_ANSWERS);
      child.set('ok', `Ready again; API answered ${SETTLE_ANSWERS} times in a row`);
    } catch (err) {
      child.set('fail', err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
  return `${todo.length}/${now.length} restarted one at a time; the API answered after each`;
}

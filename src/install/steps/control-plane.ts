import type { V1Pod } from '@kubernetes/client-node';
import { podState } from '../../kube/pods/pods.js';
import { recordBundle } from '../bundle-record.js';
import { renderBundle } from '../bundle-render.js';
import { ServerLost, waitFor } from '../../kube/watch/wait.js';
import { COMPONENTS, HINTS, lostHint, TIMEOUTS } from '../plan.js';
import { type RowControl, type RowHandle, StepError } from '../runner.js';
import { type InstallRun, messageOf, summarize } from './run.js';

/**
 * The control plane's objects (HA or not) applied to the hosting cluster, and the bundle recorded
 * there (what `fleetdeck upgrade --rollback` goes back to).
 */
export async function controlPlaneStep(run: InstallRun): Promise<string> {
  const { opts } = run;
  const results = await run.applyHosting(run.controlPlane);
  const rendered = renderBundle(run.bundle, {
    namespace: opts.namespace,
    ha: opts.ha,
    topologyKey: opts.topologyKey,
    clusters: opts.workloads.map((w) => w.clusterName),
  });
  run.record(opts.hosting.context, [await recordBundle(run.hosting, opts.namespace, rendered, opts.dryRun)]);
  return `${opts.ha ? `HA (3 replicas, spread by ${opts.topologyKey})` : 'single replica'}: ${summarize(results, opts.dryRun)}`;
}

type Component = (typeof COMPONENTS)[number];

const stuckOnStorage = (pods: V1Pod[]) =>
  pods.some(
    (p) => p.status?.phase === 'Pending' && /Unschedulable|unbound|PersistentVolumeClaim/i.test(JSON.stringify(p.status?.conditions ?? [])),
  );

/** Waits for one component's pods to be Running and Ready, on its child row. */
async function waitComponent(run: InstallRun, c: Component, child: RowHandle, desired: number): Promise<void> {
  const { opts } = run;
  child.set('running', `0/${desired}`);
  try {
    const detail = await waitFor<V1Pod>({
      kc: opts.hosting.kc,
      path: `/api/v1/namespaces/${opts.namespace}/pods`,
      labelSelector: c.selector,
      timeoutMs: c.id === 'etcd' ? TIMEOUTS.etcd : TIMEOUTS.component,
      ...(run.signal ? { signal: run.signal } : {}),
      check: (pods) => {
        const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
        const states = live.map((p) => podState(p));
        // A pod needs no attention (no problem) when it is Running and Ready.
        const ready = states.filter((s) => s.phase === 'Running' && !s.problem).length;
        const waiting = states.find((s) => s.problem)?.problem?.reason;
        if (c.id === 'etcd' && stuckOnStorage(live)) child.hint(HINTS.etcdPending);
        return { done: ready >= desired, detail: `${ready}/${desired}${waiting ? ` (${waiting})` : ''}` };
      },
      onProgress: (d) => child.progress(d),
    });
    child.set('ok', `Running ${detail}`);
  } catch (err) {
    const hint =
      err instanceof ServerLost
        ? lostHint(opts.hosting.context)
        : c.id === 'etcd'
          ? HINTS.etcdPending
          : `kubectl --context=${opts.hosting.context} -n ${opts.namespace} describe pods -l ${c.selector}`;
    child.set('fail', messageOf(err), err instanceof ServerLost || c.id === 'etcd' ? hint : undefined);
    throw new StepError(`${c.label}: ${messageOf(err)}`, hint);
  }
}

/** Waits until every component has its desired replicas Running and Ready; one child row each. */
export async function waitComponents(run: InstallRun, row: RowControl): Promise<string> {
  const desired = run.opts.ha ? 3 : 1;
  const rows = COMPONENTS.map((c) => ({ c, row: row.child(c.id, c.label) }));
  await Promise.all(rows.map(({ c, row: child }) => waitComponent(run, c, child, desired)));
  return `${COMPONENTS.length}/${COMPONENTS.length} running`;
}

/** The control plane ready: its components still running (the CRDs and the API were checked before). */
export async function readyStep(run: InstallRun, row: RowControl): Promise<string> {
  const detail = await waitComponents(run, row);
  return `components ${detail}; CRDs Established; API answering`;
}

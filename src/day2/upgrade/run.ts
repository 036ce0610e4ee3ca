/**
 * `runUpgrade`: the upgrade (or rollback) a plan describes, as checklist rows on a StepRunner:
 * a backup of the control plane, the bundle recorded in the hosting cluster, the CRDs, the
 * control plane's shared objects, then each component rolled with the health gate after it,
 * what the new bundle no longer has removed, then each workload cluster's agent (the canary
 * first). Every step applies with server-side apply and compares what is in place, so after an
 * interruption the same command continues; the first failure pauses it, saying what failed and
 * how to go back.
 */
import { Applier, type Manifest, objectRef } from '../../kube/api/apply.js';
import { waitEstablished } from '../../kube/api/crds.js';
import { runBackup } from '../../backup/backup.js';
import { backupText, writeBackupFile } from '../../backup/file.js';
import { recordLastBackup } from '../../backup/last.js';
import { BUNDLE_RECORD, nextRecord, recordObject } from '../../install/bundle-record.js';
import { COMPONENTS, TIMEOUTS } from '../../install/plan.js';
import { type RowControl, StepError, type StepRunner } from '../../install/runner.js';
import { waitAgentsConnected, waitApiAnswering, waitRollout } from './health.js';
import { componentOf, removedObjects } from './rules.js';
import type { PreparedUpgrade } from './targets.js';

export interface RunOptions {
  /** Where the backup of the control plane goes (0600). */
  backupFile: string;
  signal?: AbortSignal;
}

export interface UpgradeResult {
  ok: boolean;
  /** What was rolled, in order: component ids, then `agent:<cluster>`. Unchanged ones are not in it. */
  rolled: string[];
  backup?: { file: string; objects: number };
  /** The step it paused at, why, and how to go back. */
  failed?: { step: string; reason: string; hint: string };
}

/** The rows of an upgrade, in order. */
export function upgradeSteps(p: PreparedUpgrade): { id: string; label: string }[] {
  const what = p.plan.rollback ? 'Roll back' : 'Upgrade';
  return [
    { id: 'backup', label: 'Backup of the control plane' },
    { id: 'record', label: `Bundle recorded (ConfigMap ${p.targets.namespace}/${BUNDLE_RECORD})` },
    { id: 'crds', label: 'Nova CRDs' },
    { id: 'shared', label: "Control plane's other objects" },
    ...COMPONENTS.map((c) => ({ id: `component:${c.id}`, label: `${what} ${c.label}` })),
    { id: 'removed', label: 'Objects the bundle no longer has removed' },
    ...p.plan.agents.map((a) => ({
      id: `agent:${a.cluster}`,
      label: `${what} the agent of ${a.cluster} (${a.context})${a.canary ? ', the canary' : ''}`,
    })),
  ];
}

/** The hint of a paused upgrade. */
export function pausedHint(rollback: boolean): string {
  return rollback
    ? 'the rollback paused here: fix what the row says and run fleetdeck upgrade --rollback again (it continues where it stopped)'
    : 'the upgrade paused here; the steps after it did not run. Go back: fleetdeck upgrade --rollback (re-applies the bundle recorded before). Or fix it and run the same command again: it continues where it stopped';
}

async function applyAll(a: Applier, objs: readonly Manifest[], signal?: AbortSignal): Promise<number> {
  let changed = 0;
  for (const o of objs) {
    signal?.throwIfAborted();
    if ((await a.apply(o)).action !== 'unchanged') changed++;
  }
  return changed;
}

/** Applies one component's objects and gates on it: rolled out, API answering, agents connected. */
async function component(p: PreparedUpgrade, c: (typeof COMPONENTS)[number], row: RowControl, o: RunOptions, rolled: string[]) {
  const { targets: t, next } = p;
  const objs = next.controlPlane.filter((m) => componentOf(m) === c.id);
  const applied = row.child(`${c.id}:applied`, 'Applied');
  applied.set('running');
  const changed = await applyAll(new Applier(t.hosting.kc), objs, o.signal);
  applied.set('ok', changed ? `${changed} changed` : 'unchanged');
  if (changed) rolled.push(c.id);
  const rollout = row.child(`${c.id}:rollout`, 'All replicas updated and ready');
  rollout.set('running');
  try {
    const detail = await waitRollout({
      kc: t.hosting.kc,
      namespace: t.namespace,
      kind: c.kind,
      name: c.name,
      selector: c.selector,
      timeoutMs: c.id === 'etcd' ? TIMEOUTS.etcd : TIMEOUTS.component,
      ...(o.signal ? { signal: o.signal } : {}),
      onProgress: (d) => rollout.progress(d),
    });
    rollout.set('ok', detail);
  } catch (err) {
    rollout.set('fail', err instanceof Error ? err.message : String(err));
    throw err;
  }
  await gate(p, row, c.id, o);
  return changed ? `rolled (${changed} changed); healthy` : 'unchanged; healthy';
}

/** The API answering and the agents connected, as child rows. */
async function gate(p: PreparedUpgrade, row: RowControl, id: string, o: RunOptions): Promise<void> {
  const { targets: t } = p;
  const api = row.child(`${id}:api`, 'API answering through its load balancer');
  api.set('running');
  api.set('ok', await waitApiAnswering(t.controlPlane.kc, TIMEOUTS.component, o.signal));
  const agents = row.child(`${id}:agents`, 'Agents still connected');
  agents.set('running');
  const clusters = t.workloads.map((w) => w.clusterName);
  agents.set('ok', await waitAgentsConnected(t.controlPlane.kc, clusters, TIMEOUTS.agent, o.signal, (d) => agents.progress(d)));
}

/** One workload cluster's agent: applied, its Deployment rolled out, its Cluster Ready. */
async function agent(p: PreparedUpgrade, cluster: string, row: RowControl, o: RunOptions, rolled: string[]): Promise<string> {
  const w = p.targets.workloads.find((x) => x.clusterName === cluster)!;
  const a = new Applier(w.kc);
  const objs = p.next.agents[cluster] ?? [];
  const applied = row.child(`${cluster}:applied`, 'Applied');
  applied.set('running');
  const changed = await applyAll(a, objs, o.signal);
  const gone = removedObjects(p.replaced?.agents[cluster] ?? [], objs);
  for (const g of gone) await a.delete(g);
  applied.set('ok', changed || gone.length ? `${changed} changed, ${gone.length} removed` : 'unchanged');
  if (changed || gone.length) rolled.push(`agent:${cluster}`);
  const dep = objs.find((m) => m.kind === 'Deployment');
  if (dep) {
    const rollout = row.child(`${cluster}:rollout`, 'Agent rolled out');
    rollout.set('running');
    const labels = (dep.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels ?? {};
    try {
      rollout.set(
        'ok',
        await waitRollout({
          kc: w.kc,
          namespace: p.targets.namespace,
          kind: 'Deployment',
          name: dep.metadata.name,
          selector: Object.entries(labels)
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
          timeoutMs: TIMEOUTS.agent,
          ...(o.signal ? { signal: o.signal } : {}),
          onProgress: (d) => rollout.progress(d),
        }),
      );
    } catch (err) {
      rollout.set('fail', err instanceof Error ? err.message : String(err));
      throw err;
    }
  }
  const connected = row.child(`${cluster}:connected`, `Cluster ${cluster} Ready in the control plane`);
  connected.set('running');
  connected.set(
    'ok',
    await waitAgentsConnected(p.targets.controlPlane.kc, [cluster], TIMEOUTS.agent, o.signal, (d) => connected.progress(d)),
  );
  return changed || gone.length ? 'upgraded; connected' : 'unchanged; connected';
}

/** The runner's rows, every failure carrying the hint of a paused upgrade. */
function paused(runner: StepRunner, rollback: boolean): StepRunner['run'] {
  return (id, fn) =>
    runner.run(id, async (row) => {
      try {
        return await fn(row);
      } catch (err) {
        throw new StepError(err instanceof Error ? err.message : String(err), pausedHint(rollback));
      }
    });
}

async function steps(p: PreparedUpgrade, r: StepRunner, o: RunOptions, result: UpgradeResult): Promise<void> {
  const { targets: t, next, plan } = p;
  const runner = { run: paused(r, plan.rollback) };
  const hosting = new Applier(t.hosting.kc);
  await runner.run('backup', async () => {
    const b = await runBackup(t.controlPlane.kc, { includeSecrets: false });
    const at = new Date();
    writeBackupFile(o.backupFile, backupText(b.objects, { context: t.controlPlane.context, at, includeSecrets: false }));
    // The Day 2 page's "last backup" and restore's default file: this one now.
    recordLastBackup({ file: o.backupFile, at: at.toISOString(), context: t.controlPlane.context });
    result.backup = { file: o.backupFile, objects: b.objects.length };
    return `${b.objects.length} objects written to ${o.backupFile}`;
  });
  await runner.run('record', async () => {
    const base = p.record.current || !p.inPlace ? p.record : { current: { ...p.inPlace, recordedAt: new Date().toISOString() } };
    const record = plan.rollback ? { current: { ...next, recordedAt: new Date().toISOString() } } : nextRecord(base, next, new Date());
    const r = await hosting.apply(recordObject(t.namespace, record));
    return `${r.action}; previous: ${record.previous ? record.previous.source : 'none'}`;
  });
  await runner.run('crds', async (row) => {
    const changed = await applyAll(new Applier(t.controlPlane.kc), next.crds, o.signal);
    row.progress('waiting for the CRDs to be Established');
    await waitEstablished(t.controlPlane.kc, new Set(next.crds.map((c) => c.metadata.name)), {
      timeoutMs: TIMEOUTS.crds,
      ...(o.signal ? { signal: o.signal } : {}),
    });
    return changed ? `${changed} changed; Established` : 'unchanged; Established';
  });
  await runner.run('shared', async () => {
    const changed = await applyAll(
      hosting,
      next.controlPlane.filter((m) => !componentOf(m)),
      o.signal,
    );
    return changed ? `${changed} changed` : 'unchanged';
  });
  for (const c of COMPONENTS) await runner.run(`component:${c.id}`, (row) => component(p, c, row, o, result.rolled));
  await runner.run('removed', async () => {
    const gone = removedObjects(p.replaced?.controlPlane ?? [], next.controlPlane);
    let n = 0;
    for (const g of gone) if (await hosting.delete(g)) n++;
    return n ? `${n} removed: ${gone.map(objectRef).join(', ')}` : 'nothing to remove';
  });
  for (const a of plan.agents) await runner.run(`agent:${a.cluster}`, (row) => agent(p, a.cluster, row, o, result.rolled));
}

/**
 * Runs a planned upgrade (or rollback) on `runner`'s rows. Never throws for a failed step: the
 * result says where it paused, why, and how to go back.
 */
export async function runUpgrade(p: PreparedUpgrade, runner: StepRunner, o: RunOptions): Promise<UpgradeResult> {
  const result: UpgradeResult = { ok: false, rolled: [] };
  runner.plan(upgradeSteps(p));
  try {
    await steps(p, runner, o, result);
    result.ok = true;
  } catch (err) {
    const failed = runner.items().find((i) => i.state === 'fail');
    const reason = err instanceof Error ? err.message : String(err);
    result.failed = { step: failed?.label ?? 'start', reason, hint: pausedHint(p.plan.rollback) };
  } finally {
    runner.stop();
  }
  return result;
}

/**
 * A CA rotation as live rows, in three phases (bundle, leaves, drop), each: its Secrets
 * written, the components restarted one replica at a time with the API checked through the load
 * balancer, the kubeconfig files and the agents' init kubeconfig updated, the agents confirmed
 * re-connected. Every phase is recorded in the cluster; a killed run continues at its phase with
 * the same new CAs (kept in their `-next` Secrets).
 */
import fs from 'node:fs';
import { fleetFilePath, rerecordIdentity } from '../../../config/fleet-config.js';
import { DEFAULT_CERT_VALIDITY_DAYS } from '../../../install/certs/specs.js';
import { loadKubeconfig } from '../../../kube/config/kubeconfig.js';
import type { CertSet } from '../../../install/certs/types.js';
import type { StepRunner } from '../../../install/runner.js';
import { Applier, type Manifest } from '../../../kube/api/apply.js';
import { reconnectAgent } from '../agents.js';
import { editInitKubeconfigs, editKubeconfigFiles, replaceClientCert } from '../kubeconfigs.js';
import { agentPods, componentPods } from '../pods.js';
import { kubeconfigFiles, readInputs } from '../plan.js';
import { rollComponent, checkApi } from '../restart.js';
import { certFact, completed, servingInUse, serialOf } from '../run.js';
import { COMPONENT_ORDER } from '../select.js';
import type { RenewTarget } from '../target.js';
import { type Rotation, type RotationPhase, rotationSecrets, setCaData, trustOf } from './bundle.js';
import { dropNextCas, ensureNextCas, type NextCa, readNextCas, rotationOf } from './next-ca.js';
import { type RotatePlan, rotatePlanFrom, selectCas } from './plan.js';
import { type RotationRecord, nextPhase, readRotation, rotationUnfinished, writeRotation } from './record.js';
import { followTrust, phaseSet } from './trust.js';

export interface RotateResult {
  ok: boolean;
  plan: RotatePlan;
  /** The CAs at the end: name and serial of the new certificate. */
  certs: { name: string; serial: string; notAfter: string }[];
}

/** The rows of `plan`, in order. */
export function rotateSteps(plan: RotatePlan, t: Pick<RenewTarget, 'workloads'>): { id: string; label: string }[] {
  const label = (c: string) => COMPONENT_ORDER.find((x) => x.id === c)?.label ?? c;
  const rows: { id: string; label: string }[] = [{ id: 'record', label: 'New CAs kept in the cluster; rotation recorded (resumable)' }];
  for (const ph of plan.phases) {
    const p = ph.phase;
    rows.push({ id: `${p}:secrets`, label: `${p}: Secrets (${ph.summary})` });
    for (const r of ph.restarts)
      rows.push({ id: `${p}:restart:${r.component}`, label: `${p}: ${label(r.component)} restarted one replica at a time` });
    if (p === 'leaves' && ph.restarts.some((r) => r.component === 'apiserver'))
      rows.push({ id: 'leaves:serving', label: 'leaves: serving certificate signed by the new CA in use through the load balancer' });
    if (ph.kubeconfigs.length) rows.push({ id: `${p}:kubeconfigs`, label: `${p}: Kubeconfig files` });
    if (ph.initKubeconfigs.length) rows.push({ id: `${p}:init`, label: `${p}: Agents' init kubeconfig Secrets` });
    for (const w of t.workloads.filter((x) => ph.agents.includes(x.context)))
      rows.push({ id: `${p}:agent:${w.context}`, label: `${p}: Cluster ${w.clusterName} reconnected (${w.context})` });
  }
  rows.push({ id: 'done', label: 'CA rotation finished; -next Secrets deleted' });
  return rows;
}

/** The kubeconfig files edited; the fleet file, which knows the control plane by its CA, learns the one handed over. */
function editAndRecord(t: RenewTarget, edit: Parameters<typeof editKubeconfigFiles>[1]): string {
  const done = editKubeconfigFiles(t, edit);
  if (fs.existsSync(t.kubeconfigPath))
    rerecordIdentity(fleetFilePath(), t.controlPlane.context, loadKubeconfig({ kubeconfig: t.kubeconfigPath }).config);
  return done;
}

/** The pods running now (they load the files of the phase before). */
async function snapshot(t: RenewTarget): Promise<Pick<RotationRecord, 'stalePods' | 'staleAgents'>> {
  const stalePods: Record<string, string[]> = {};
  for (const c of COMPONENT_ORDER) stalePods[c.id] = (await componentPods(t, c)).map((p) => p.uid);
  const staleAgents: Record<string, string[]> = {};
  for (const w of t.workloads) staleAgents[w.context] = (await agentPods(w.kc, t.namespace)).map((p) => p.uid);
  return { stalePods, staleAgents };
}

async function writeAll(t: RenewTarget, set: CertSet, rotation: Rotation, phase: RotationPhase): Promise<string> {
  const a = new Applier(t.hosting.kc);
  const changed: string[] = [];
  for (const s of rotationSecrets(set, rotation, phase))
    if ((await a.apply(s as Manifest)).action !== 'unchanged') changed.push(s.metadata!.name!);
  return changed.length ? `updated ${changed.join(', ')}` : 'already written';
}

/** The edit of a kubeconfig in `phase`: the cluster CA's trust, and from `leaves` on the re-issued client certificate. */
function kubeconfigEdit(rotation: Rotation, phase: RotationPhase, client: CertSet['admin']) {
  return (doc: Parameters<typeof replaceClientCert>[0]) => {
    const ca = rotation.clusterCA;
    const names = ca ? setCaData(doc, [ca.old, ca.next], trustOf(ca, phase)) : [];
    return [...new Set([...names, ...(phase === 'bundle' ? [] : replaceClientCert(doc, client))])];
  };
}

/**
 * Rotates the CAs named (`all` by default) as rows on `runner`; an unfinished rotation recorded
 * in the cluster is continued instead. Never prints key material.
 */
export async function runRotate(t: RenewTarget, names: readonly string[], runner: StepRunner, signal?: AbortSignal): Promise<RotateResult> {
  const inputs = await readInputs(t, ['all']);
  const days = t.validityDays ?? DEFAULT_CERT_VALIDITY_DAYS;
  let rec = await readRotation(t.hosting.kc, t.namespace);
  const resumed = rotationUnfinished(rec) ? rec : undefined;
  const cas = resumed ? resumed.cas : selectCas(names);
  const plan = rotatePlanFrom({
    namespace: t.namespace,
    cas,
    pods: {},
    kubeconfigFiles: kubeconfigFiles(t),
    controlPlaneContext: t.controlPlane.context,
    workloads: t.workloads.map((w) => w.context),
    ...(resumed ? { resumed } : {}),
  });
  runner.plan(rotateSteps(plan, t));
  const result: RotateResult = { ok: false, plan, certs: [] };
  let next: Partial<Record<(typeof cas)[number], NextCa>> = {};
  result.ok = await completed(runner, async () => {
    await runner.run('record', async () => {
      if (resumed) {
        next = await readNextCas(t.hosting.kc, t.namespace, cas);
        if (cas.some((f) => !next[f])) throw new Error('a -next CA Secret of the unfinished rotation is missing; it cannot be continued');
        return `continuing the rotation started ${resumed.startedAt} at phase ${resumed.phase}`;
      }
      next = await ensureNextCas(t.hosting.kc, t.namespace, cas, inputs.found, days);
      rec = { cas, phase: 'bundle', written: false, startedAt: new Date().toISOString(), ...(await snapshot(t)) };
      await writeRotation(t.hosting.kc, t.namespace, rec);
      return `${cas.length} CA(s); new CAs in ${cas.length} -next Secret(s); ConfigMap ${t.namespace}/fleetdeck-cert-renewal`;
    });
    const r = rec!;
    const rotation = rotationOf(next);
    for (const ph of plan.phases) {
      const p = ph.phase;
      // Read again: the phase before changed the Secrets.
      const set = await phaseSet(await readInputs(t, ['all']), t.namespace, next, p, days);
      await runner.run(`${p}:secrets`, async () => {
        if (r.written) return 'already written (resumed)';
        const detail = await writeAll(t, set, rotation, p);
        r.written = true;
        await writeRotation(t.hosting.kc, t.namespace, r);
        return detail;
      });
      followTrust(t.controlPlane.kc, rotation, p === 'drop' ? 'drop' : 'bundle', set);
      for (const rs of ph.restarts) {
        const c = COMPONENT_ORDER.find((x) => x.id === rs.component)!;
        await runner.run(`${p}:restart:${c.id}`, async (row) => {
          await checkApi(t, signal);
          return rollComponent(t, c, r.stalePods[c.id] ?? [], row, signal);
        });
      }
      if (p === 'leaves' && ph.restarts.some((x) => x.component === 'apiserver'))
        await runner.run('leaves:serving', () => servingInUse(t, serialOf(set.apiserver.certPem)));
      const edit = kubeconfigEdit(rotation, p, set.admin);
      if (ph.kubeconfigs.length) await runner.run(`${p}:kubeconfigs`, async () => editAndRecord(t, edit));
      if (ph.initKubeconfigs.length)
        await runner.run(`${p}:init`, (row) =>
          editInitKubeconfigs(t, kubeconfigEdit(rotation, p, set.agentBootstrap), (d) => row.progress(d)),
        );
      for (const w of t.workloads.filter((x) => ph.agents.includes(x.context)))
        await runner.run(`${p}:agent:${w.context}`, (row) => reconnectAgent(t, w, r.staleAgents[w.context] ?? [], row, signal));
      const n = nextPhase(p);
      if (n !== 'done') {
        Object.assign(r, { phase: n, written: false }, await snapshot(t));
        await writeRotation(t.hosting.kc, t.namespace, r);
      }
    }
    await runner.run('done', async () => {
      await dropNextCas(t.hosting.kc, t.namespace, cas);
      r.phase = 'done';
      r.finishedAt = new Date().toISOString();
      await writeRotation(t.hosting.kc, t.namespace, r);
      return `finished ${r.finishedAt}`;
    });
    result.certs = cas.map((f, i) => certFact(plan.cas[i]!.name, next[f]!.certPem));
  });
  return result;
}

/** Reads what is in place and plans the rotation of the CAs named (an unfinished rotation's phases left); changes nothing. */
export async function planRotate(t: RenewTarget, names: readonly string[]): Promise<RotatePlan> {
  const rec = await readRotation(t.hosting.kc, t.namespace);
  const resumed = rotationUnfinished(rec) ? rec : undefined;
  const pods: Record<string, string[]> = {};
  for (const c of COMPONENT_ORDER) pods[c.id] = (await componentPods(t, c)).map((x) => x.name);
  return rotatePlanFrom({
    namespace: t.namespace,
    cas: resumed ? resumed.cas : selectCas(names),
    pods,
    kubeconfigFiles: kubeconfigFiles(t),
    controlPlaneContext: t.controlPlane.context,
    workloads: t.workloads.map((w) => w.context),
    ...(resumed ? { resumed } : {}),
  });
}

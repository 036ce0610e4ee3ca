/**
 * The renewal as live rows: recorded in the cluster, new certificates into the Secrets, the
 * components restarted one replica at a time with the API checked through the load balancer
 * between, the serving certificate seen in use, the kubeconfigs and the agents' init
 * kubeconfig updated, the agents confirmed re-connected. Interrupted (a kill included), the
 * same command finishes the same renewal from its record.
 */
import { X509Certificate } from 'node:crypto';
import { certSecrets } from '../../install/certs/secrets.js';
import { DEFAULT_CERT_VALIDITY_DAYS, pickLeaf } from '../../install/certs/specs.js';
import type { CertSet } from '../../install/certs/types.js';
import { type StepRunner, StepError } from '../../install/runner.js';
import { Applier, type Manifest } from '../../kube/api/apply.js';
import { presentedCert } from '../../kube/certs/serving-cert.js';
import { reconnectAgent } from './agents.js';
import { renewedSet } from './issue.js';
import { agentPods, componentPods } from './pods.js';
import { type RenewPlan, type RenewInputs, readInputs, renewPlanFrom, kubeconfigFiles } from './plan.js';
import { type RenewRecord, writeRecord } from './record.js';
import { checkApi, rollComponent } from './restart.js';
import { COMPONENT_ORDER } from './select.js';
import { updateInitKubeconfigs, updateKubeconfigFiles } from './kubeconfigs.js';
import type { RenewTarget } from './target.js';

export interface RenewedCert {
  name: string;
  serial: string;
  notAfter: string;
}

export interface RenewResult {
  ok: boolean;
  plan: RenewPlan;
  /** The certificates as they are in the Secrets at the end. */
  certs: RenewedCert[];
}

/** The rows of a renewal of `plan`, in order. */
export function renewSteps(plan: RenewPlan, t: Pick<RenewTarget, 'workloads'>): { id: string; label: string }[] {
  const label = (c: string) => COMPONENT_ORDER.find((x) => x.id === c)?.label ?? c;
  return [
    { id: 'record', label: 'Renewal recorded in the cluster (resumable)' },
    { id: 'secrets', label: 'New certificates in the Secrets (signed by the existing CAs)' },
    ...plan.restarts.map((r) => ({ id: `restart:${r.component}`, label: `${label(r.component)} restarted one replica at a time` })),
    ...(plan.certs.some((c) => c.name === 'apiserver')
      ? [{ id: 'serving', label: 'New serving certificate in use through the load balancer' }]
      : []),
    ...(plan.kubeconfigs.length ? [{ id: 'kubeconfigs', label: 'Kubeconfig files' }] : []),
    ...(plan.initKubeconfigs.length ? [{ id: 'init', label: "Agents' init kubeconfig Secrets" }] : []),
    ...t.workloads
      .filter((w) => plan.agents.includes(w.context))
      .map((w) => ({ id: `agent:${w.context}`, label: `Cluster ${w.clusterName} reconnected (${w.context})` })),
    { id: 'done', label: 'Renewal finished' },
  ];
}

export const serialOf = (pem: string | undefined) => (pem ? new X509Certificate(pem).serialNumber.toUpperCase() : '');

/** The record of a new renewal: which certificates, and which pods run with the old ones now. */
async function startRecord(t: RenewTarget, inputs: RenewInputs): Promise<RenewRecord> {
  const stalePods: Record<string, string[]> = {};
  for (const c of COMPONENT_ORDER) stalePods[c.id] = (await componentPods(t, c)).map((p) => p.uid);
  const staleAgents: Record<string, string[]> = {};
  for (const w of t.workloads) staleAgents[w.context] = (await agentPods(w.kc, t.namespace)).map((p) => p.uid);
  return { phase: 'started', certs: inputs.leaves.map((l) => l.id), startedAt: new Date().toISOString(), stalePods, staleAgents };
}

/** The Secrets that hold the renewed certificates, written (each only when it changed). */
async function writeSecrets(t: RenewTarget, set: CertSet, secrets: readonly string[]): Promise<string> {
  const a = new Applier(t.hosting.kc);
  let changed = 0;
  for (const s of certSecrets(set, t.namespace).filter((x) => secrets.includes(x.metadata!.name!))) {
    if ((await a.apply(s as Manifest)).action !== 'unchanged') changed++;
  }
  return `${changed}/${secrets.length} Secrets updated`;
}

/** Several new connections through the load balancer all present the Secret's serving certificate. */
export async function servingInUse(t: RenewTarget, serial: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add((await presentedCert(t.controlPlane.kc).catch(() => ({ serial: '?' }))).serial);
    if (seen.size === 1 && seen.has(serial)) return `serial ${serial} on 6/6 connections`;
    if (Date.now() > deadline)
      throw new StepError(`the load balancer still serves other certificates (${[...seen].join(', ')}; expected ${serial})`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Renews the certificates `names` (`all` by default) as rows on `runner`; an unfinished
 * renewal recorded in the cluster is finished first instead. Never prints key material.
 */
export async function runRenew(t: RenewTarget, names: readonly string[], runner: StepRunner, signal?: AbortSignal): Promise<RenewResult> {
  const inputs = await readInputs(t, names);
  const days = t.validityDays ?? DEFAULT_CERT_VALIDITY_DAYS;
  const plan = renewPlanFrom({
    namespace: t.namespace,
    found: inputs.found,
    leaves: inputs.leaves,
    now: Date.now(),
    days,
    pods: {},
    kubeconfigFiles: kubeconfigFiles(t),
    controlPlaneContext: t.controlPlane.context,
    workloads: t.workloads.map((w) => w.context),
    ...(inputs.record ? { resumed: inputs.record } : {}),
  });
  runner.plan(renewSteps(plan, t));
  const result: RenewResult = { ok: false, plan, certs: [] };
  let record = inputs.record;
  let set: CertSet | undefined;
  result.ok = await completed(runner, async () => {
    await runner.run('record', async () => {
      if (record) return `continuing the renewal started ${record.startedAt} (${record.phase === 'started' ? 'Secrets' : 'restarts'} next)`;
      record = await startRecord(t, inputs);
      await writeRecord(t.hosting.kc, t.namespace, record);
      return `${record.certs.length} certificates; ConfigMap ${t.namespace}/fleetdeck-cert-renewal`;
    });
    const rec = record!;
    await runner.run('secrets', async (row) => {
      if (rec.phase !== 'started') {
        set = await renewedSet(inputs.found, [], { namespace: t.namespace, address: inputs.address, members: inputs.members, days });
        return 'already written (resumed)';
      }
      row.progress('signing');
      set = await renewedSet(inputs.found, inputs.leaves, {
        namespace: t.namespace,
        address: inputs.address,
        members: inputs.members,
        days,
      });
      const detail = await writeSecrets(t, set, plan.secrets);
      rec.phase = 'secrets';
      await writeRecord(t.hosting.kc, t.namespace, rec);
      return detail;
    });
    for (const r of plan.restarts) {
      const c = COMPONENT_ORDER.find((x) => x.id === r.component)!;
      await runner.run(`restart:${c.id}`, async (row) => {
        await checkApi(t, signal);
        return rollComponent(t, c, rec.stalePods[c.id] ?? [], row, signal);
      });
    }
    const s = set!;
    if (plan.certs.some((c) => c.name === 'apiserver')) await runner.run('serving', () => servingInUse(t, serialOf(s.apiserver.certPem)));
    if (plan.kubeconfigs.length) await runner.run('kubeconfigs', async () => updateKubeconfigFiles(t, s.admin));
    if (plan.initKubeconfigs.length) await runner.run('init', (row) => updateInitKubeconfigs(t, s.agentBootstrap, (d) => row.progress(d)));
    for (const w of t.workloads.filter((x) => plan.agents.includes(x.context))) {
      await runner.run(`agent:${w.context}`, (row) => reconnectAgent(t, w, rec.staleAgents[w.context] ?? [], row, signal));
    }
    await runner.run('done', async () => {
      rec.phase = 'done';
      rec.finishedAt = new Date().toISOString();
      await writeRecord(t.hosting.kc, t.namespace, rec);
      return `finished ${rec.finishedAt}`;
    });
    result.certs = inputs.leaves.map((l) => certFact(l.id, pickLeaf(s, l.place)?.certPem));
  });
  return result;
}

/** A certificate's public facts for the result. */
export function certFact(name: string, pem: string | undefined): RenewedCert {
  return { name, serial: serialOf(pem), notAfter: pem ? new X509Certificate(pem).validToDate.toISOString() : '' };
}

/** Runs `work` (the rows); true when every row succeeded. The runner is stopped either way. */
export async function completed(runner: StepRunner, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch {
    return false;
  } finally {
    runner.stop();
  }
}

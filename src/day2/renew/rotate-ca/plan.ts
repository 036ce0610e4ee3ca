/**
 * A CA rotation's plan (pure): which CAs, and per phase what is written, which components
 * restart one replica at a time, which kubeconfigs and agents follow.
 */
import { UsageError } from '../../../errors.js';
import { CA_SPECS, type CaField } from '../../../install/certs/specs.js';
import { APISERVER, COMPONENT_ORDER, type Component, ETCD } from '../select.js';
import type { RotationPhase } from './bundle.js';
import { caSecretName, nextSecretName } from './next-ca.js';
import { PHASES, type RotationRecord } from './record.js';

/** The CAs `--rotate-ca` rotates for `names`: `all` (or nothing) is every CA; else the CAs named. */
export function selectCas(names: readonly string[]): CaField[] {
  const wanted = names.length === 0 ? ['all'] : names;
  if (wanted.includes('all')) return CA_SPECS.map((c) => c.field);
  const out = new Set<CaField>();
  for (const raw of wanted) {
    const spec = CA_SPECS.find((c) => c.id === raw);
    if (!spec)
      throw new UsageError(
        `certs renew --rotate-ca: "${raw}" is not a CA (rotatable: all, ${CA_SPECS.map((c) => c.id).join(', ')}); renew leaves without --rotate-ca`,
      );
    out.add(spec.field);
  }
  return CA_SPECS.map((c) => c.field).filter((f) => out.has(f));
}

const CONTROLLER_MANAGER = COMPONENT_ORDER.find((c) => c.id === 'controller-manager')!;
const SCHEDULER = COMPONENT_ORDER.find((c) => c.id === 'nova-scheduler')!;

/** Who loads a CA's trust files and leaves, and the Secrets that hold them. */
const USERS: Readonly<Record<CaField, { components: Component[]; secrets: string[]; clients: boolean }>> = {
  clusterCA: {
    components: [APISERVER, CONTROLLER_MANAGER, SCHEDULER],
    secrets: ['nova-apiserver-certs', 'nova-controller-manager', 'nova-scheduler', 'nova-admin', 'nova-agent-bootstrap'],
    clients: true,
  },
  etcdCA: { components: [ETCD, APISERVER], secrets: ['nova-etcd-certs', 'nova-apiserver-certs'], clients: false },
  frontProxyCA: { components: [APISERVER], secrets: ['nova-apiserver-certs'], clients: false },
};

export interface RotatePhasePlan {
  phase: RotationPhase;
  /** What the phase does, for people. */
  summary: string;
  secrets: string[];
  restarts: { component: string; pods: string[] }[];
  kubeconfigs: string[];
  initKubeconfigs: string[];
  agents: string[];
}

export interface RotatePlan {
  namespace: string;
  resumed?: { startedAt: string; phase: RotationRecord['phase'] };
  cas: { name: string; secret: string; nextSecret: string }[];
  phases: RotatePhasePlan[];
}

const SUMMARY: Record<RotationPhase, string> = {
  bundle: 'new CA made and kept in its -next Secret; every trust bundle holds old + new CA',
  leaves: 'the new CA becomes the signer; every leaf it covers re-issued by it (keys kept)',
  drop: 'the old CA removed from every trust bundle; the -next Secrets deleted',
};

export interface RotatePlanInput {
  namespace: string;
  cas: readonly CaField[];
  pods: Record<string, string[]>;
  kubeconfigFiles: string[];
  controlPlaneContext: string;
  workloads: string[];
  resumed?: RotationRecord;
}

/** The plan of rotating `cas`; a resumed rotation lists only the phases left. */
export function rotatePlanFrom(p: RotatePlanInput): RotatePlan {
  const users = p.cas.map((f) => USERS[f]);
  const components = COMPONENT_ORDER.filter((c) => users.some((u) => u.components.some((x) => x.id === c.id)));
  const clients = users.some((u) => u.clients);
  const caSecrets = p.cas.map(caSecretName);
  const leafSecrets = [...new Set(users.flatMap((u) => u.secrets))];
  const trustSecrets = leafSecrets.filter((s) => s !== 'nova-admin' && s !== 'nova-agent-bootstrap');
  const from = p.resumed && p.resumed.phase !== 'done' ? PHASES.indexOf(p.resumed.phase) : 0;
  const phases = PHASES.slice(from).map(
    (phase): RotatePhasePlan => ({
      phase,
      summary: SUMMARY[phase],
      secrets:
        phase === 'bundle'
          ? [...p.cas.map(nextSecretName), ...trustSecrets]
          : phase === 'leaves'
            ? [...caSecrets, ...leafSecrets]
            : [...trustSecrets, ...p.cas.map((f) => `${nextSecretName(f)} (deleted)`)],
      restarts: components.map((c) => ({ component: c.id, pods: p.pods[c.id] ?? [] })),
      kubeconfigs: clients ? p.kubeconfigFiles : [],
      initKubeconfigs: clients ? [p.controlPlaneContext, ...p.workloads] : [],
      agents: clients ? p.workloads : [],
    }),
  );
  return {
    namespace: p.namespace,
    ...(p.resumed ? { resumed: { startedAt: p.resumed.startedAt, phase: p.resumed.phase } } : {}),
    cas: p.cas.map((f) => ({ name: CA_SPECS.find((c) => c.field === f)!.id, secret: caSecretName(f), nextSecret: nextSecretName(f) })),
    phases,
  };
}

/** The plan as the text `certs renew --rotate-ca` prints. */
export function rotatePlanLines(plan: RotatePlan): string[] {
  const lines: string[] = [];
  if (plan.resumed)
    lines.push(
      `An earlier CA rotation (started ${plan.resumed.startedAt}) did not finish: this run continues it at phase ${plan.resumed.phase}.`,
    );
  lines.push(`Plan: rotate ${plan.cas.map((c) => c.name).join(', ')} in namespace ${plan.namespace}, in ${plan.phases.length} phase(s):`);
  for (const [i, ph] of plan.phases.entries()) {
    lines.push(`  ${i + 1}. ${ph.phase}: ${ph.summary}`);
    lines.push(`     Secrets: ${ph.secrets.join(', ')}`);
    for (const r of ph.restarts) lines.push(`     Restart one at a time: ${r.component} (${r.pods.join(', ') || 'no pod'})`);
    if (ph.kubeconfigs.length) lines.push(`     Kubeconfigs: ${ph.kubeconfigs.join(', ')}`);
    if (ph.initKubeconfigs.length) lines.push(`     Init kubeconfig Secret in: ${ph.initKubeconfigs.join(', ')}`);
    if (ph.agents.length) lines.push(`     Agents restarted and checked re-connected: ${ph.agents.join(', ')}`);
  }
  return lines;
}

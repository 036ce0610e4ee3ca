/**
 * The renewal's plan, read only: which certificates (old not-after → new), which Secrets,
 * which pods restart, which kubeconfigs change. `renewPlanFrom` decides from what was read
 * (pure); `planRenew` reads it.
 */
import { X509Certificate } from 'node:crypto';
import { CERT_SECRET_NAMES, DEFAULT_CERT_VALIDITY_DAYS, leafSpecs, pickLeaf, type LeafSpec } from '../../install/certs/specs.js';
import { certSetFromSecrets } from '../../install/certs/secrets.js';
import type { ApiserverAddress, PartialCertSet } from '../../install/certs/types.js';
import { mergeRecordPath, readMergeRecord } from '../../install/kubeconfig-unmerge.js';
import { readSecrets } from '../../kube/certs/secret.js';
import { readServiceAddress } from '../../kube/api/service.js';
import { type RenewRecord, readRecord, unfinished } from './record.js';
import { COMPONENT_ORDER, type Component, placeOf, selectLeaves } from './select.js';
import { componentPods } from './pods.js';
import type { RenewTarget } from './target.js';

const DAY_MS = 86_400_000;

/** One certificate to renew: public facts only. */
export interface RenewCertPlan {
  name: string;
  description: string;
  secret: string;
  /** ISO time; absent when the Secret has no readable certificate. */
  notAfter?: string;
  newNotAfter: string;
  /** The new not-after is its CA's (a leaf never outlives its CA): renewing the CA goes further. */
  cappedByCa: boolean;
}

export interface RenewPlan {
  namespace: string;
  /** An earlier run was interrupted: this one finishes it (its certificates, not the names given). */
  resumed?: { startedAt: string; phase: RenewRecord['phase'] };
  certs: RenewCertPlan[];
  /** Secret names in the hosting namespace. */
  secrets: string[];
  /** Components restarted one replica at a time, in this order, with their pods now. */
  restarts: { component: string; pods: string[] }[];
  /** Kubeconfig files rewritten (the install's, and the file it merged into). */
  kubeconfigs: string[];
  /** Contexts whose init kubeconfig Secret changes (the control plane's, then each workload's). */
  initKubeconfigs: string[];
  /** Workload contexts whose agent restarts and must reconnect. */
  agents: string[];
}

export interface PlanInput {
  namespace: string;
  found: PartialCertSet;
  leaves: readonly LeafSpec[];
  now: number;
  days: number;
  pods: Record<string, string[]>;
  kubeconfigFiles: string[];
  controlPlaneContext: string;
  workloads: string[];
  resumed?: RenewRecord;
}

const caField = { clusterCA: 'clusterCA', etcdCA: 'etcdCA', frontProxyCA: 'frontProxyCA' } as const;

function notAfterOf(pem: string | undefined): number | undefined {
  try {
    return pem ? new X509Certificate(pem).validToDate.getTime() : undefined;
  } catch {
    return undefined;
  }
}

/** The plan for `leaves`, from what was read. */
export function renewPlanFrom(p: PlanInput): RenewPlan {
  const certs = p.leaves.map((spec): RenewCertPlan => {
    const old = notAfterOf(pickLeaf(p.found, spec.place)?.certPem);
    const caEnd = notAfterOf(p.found[caField[spec.ca]]?.certPem) ?? Number.POSITIVE_INFINITY;
    const wanted = p.now + p.days * DAY_MS;
    const { secret } = placeOf(spec.id);
    return {
      name: spec.id,
      description: spec.description,
      secret,
      ...(old !== undefined ? { notAfter: new Date(old).toISOString() } : {}),
      newNotAfter: new Date(Math.min(wanted, caEnd)).toISOString(),
      cappedByCa: caEnd < wanted,
    };
  });
  const consumers = p.leaves.map((l) => placeOf(l.id).consumer);
  const components = COMPONENT_ORDER.filter((c) => consumers.some((x) => 'component' in x && x.component.id === c.id));
  const agent = consumers.some((x) => 'kubeconfigs' in x && x.kubeconfigs === 'agent');
  const admin = consumers.some((x) => 'kubeconfigs' in x && x.kubeconfigs === 'admin');
  return {
    namespace: p.namespace,
    ...(p.resumed ? { resumed: { startedAt: p.resumed.startedAt, phase: p.resumed.phase } } : {}),
    certs,
    secrets: [...new Set(certs.map((c) => c.secret))],
    restarts: components.map((c) => ({ component: c.id, pods: p.pods[c.id] ?? [] })),
    kubeconfigs: admin ? p.kubeconfigFiles : [],
    initKubeconfigs: agent ? [p.controlPlaneContext, ...p.workloads] : [],
    agents: agent ? p.workloads : [],
  };
}

/** What `planRenew` reads, kept for the run. */
export interface RenewInputs {
  found: PartialCertSet;
  leaves: LeafSpec[];
  address: ApiserverAddress;
  members: number;
  record?: RenewRecord;
}

/** The Secrets, the record, the Service's address and the leaves chosen (an unfinished renewal's, when there is one). */
export async function readInputs(t: RenewTarget, names: readonly string[]): Promise<RenewInputs> {
  const secrets = await readSecrets(t.hosting.kc, t.namespace, CERT_SECRET_NAMES);
  const found = certSetFromSecrets(Object.values(secrets));
  const members = Math.max(1, found.etcd?.length ?? 1);
  const address =
    (await readServiceAddress(t.hosting.kc, t.namespace, 'apiserver')) ?? addressOf(t.controlPlane.kc.getCurrentCluster()?.server);
  const specs = leafSpecs(t.namespace, address, members);
  const record = await readRecord(t.hosting.kc, t.namespace);
  const chosen = unfinished(record) ? specs.filter((s) => record.certs.includes(s.id)) : selectLeaves(names, specs);
  return { found, leaves: chosen, address, members, ...(unfinished(record) ? { record } : {}) };
}

function addressOf(server: string | undefined): ApiserverAddress {
  const host = server ? new URL(server).hostname.replace(/^\[(.*)\]$/, '$1') : '';
  return /^[\d.:]+$/.test(host) ? { ip: host } : { hostname: host };
}

/** The install's kubeconfig file and, when the install merged it, the file it merged into. */
export function kubeconfigFiles(t: RenewTarget): string[] {
  const merged = readMergeRecord(mergeRecordPath(t.kubeconfigPath))?.merges.map((m) => m.file) ?? [];
  return [t.kubeconfigPath, ...merged];
}

/** Reads what is in place and plans the renewal of `names` (`all` by default); changes nothing. */
export async function planRenew(t: RenewTarget, names: readonly string[], now = Date.now()): Promise<RenewPlan> {
  const inputs = await readInputs(t, names);
  const pods: Record<string, string[]> = {};
  for (const c of COMPONENT_ORDER) pods[c.id] = (await componentPods(t, c as Component)).map((x) => x.name);
  return renewPlanFrom({
    namespace: t.namespace,
    found: inputs.found,
    leaves: inputs.leaves,
    now,
    days: t.validityDays ?? DEFAULT_CERT_VALIDITY_DAYS,
    pods,
    kubeconfigFiles: kubeconfigFiles(t),
    controlPlaneContext: t.controlPlane.context,
    workloads: t.workloads.map((w) => w.context),
    ...(inputs.record ? { resumed: inputs.record } : {}),
  });
}

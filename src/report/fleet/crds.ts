import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import type { FleetState } from '../../store/fleet-store.js';
import type { ControlPlaneSummary, NovaCluster } from '../../kube/fleet/control-plane.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import { contextGate, forbiddenFor, forbiddenGate, gated } from './gates.js';
import { AGENT_DEPLOYMENT, crdHint, NO_CLUSTERS_HINT, NO_POLICIES_HINT } from './hints.js';

interface CrdPresence {
  state: CheckState;
  detail: string;
  hint?: string;
}

function crdPresence(cp: ControlPlaneSummary, which: keyof ControlPlaneSummary['crds'], objects: string, fleet: FleetConfig): CrdPresence {
  const crdForbidden = forbiddenFor(cp.forbidden, 'customresourcedefinitions');
  if (!crdForbidden || cp.crds[which]) {
    return cp.crds[which] ? { state: 'ok', detail: 'installed' } : { state: 'fail', detail: 'not installed', hint: crdHint(fleet) };
  }
  // CRDs cannot be listed: their objects' lists answer instead (a 404 means not installed).
  const objectsForbidden = forbiddenFor(cp.forbidden, objects);
  if (which === 'scheduleGroup' || objectsForbidden) return forbiddenGate(crdForbidden, fleet.controlPlaneContext);
  return { state: 'fail', detail: 'not installed', hint: crdHint(fleet) };
}

function clusterRow(c: NovaCluster, fleet: FleetConfig): CheckItem {
  const id = `nova/cluster/${c.name}`;
  if (c.ready === 'True') return { id, label: `Cluster ${c.name} connected and ready`, bullet: true, state: 'ok' };
  const w = fleet.workloads.find((x) => x.clusterName === c.name);
  const where = w ? `--context=${w.context}` : '--context=<its context>';
  return {
    id,
    label: `Cluster ${c.name}`,
    state: 'fail',
    detail: `connected, not ready (Ready=${c.ready ?? 'unknown'}, Idle=${c.idle ?? 'unknown'}, Standby=${c.standby ?? 'unknown'})`,
    hint: `look at the agent's log: kubectl logs ${where} -n ${fleet.namespace} deployment/${AGENT_DEPLOYMENT}`,
  };
}

export function crdItems(state: FleetState, fleet: FleetConfig): CheckItem[] {
  const items: CheckItem[] = [{ id: 'crd/title', label: 'Checking presence of Nova Custom Resource Definitions', state: 'info' }];
  const labels = {
    cluster: 'Cluster CRD presence',
    schedulePolicy: 'SchedulePolicy CRD presence',
    scheduleGroup: 'ScheduleGroup CRD presence',
  };
  const cpName = fleet.controlPlaneContext;
  let gate = contextGate(state, cpName, 'control plane', fleet);
  const cp = state.status.contexts[cpName]?.controlPlane;
  if (!gate && !cp?.synced) gate = { state: 'pending', detail: 'loading…' };
  if (gate || !cp) {
    const g = gate ?? { state: 'pending' as const, detail: 'loading…' };
    items.push(
      gated('crd/cluster', labels.cluster, g, true),
      gated('crd/schedulePolicy', labels.schedulePolicy, g, false),
      gated('crd/scheduleGroup', labels.scheduleGroup, g, false),
      g.state === 'pending'
        ? { id: 'crd/all', label: 'Checking Nova Custom Resource Definitions', state: 'pending' }
        : { id: 'crd/all', label: 'Nova Custom Resource Definitions are unknown', state: 'fail' },
    );
    return items;
  }

  const presence = {
    cluster: crdPresence(cp, 'cluster', 'clusters.cluster.elotl.co', fleet),
    schedulePolicy: crdPresence(cp, 'schedulePolicy', 'schedulepolicies.policy.elotl.co', fleet),
    scheduleGroup: crdPresence(cp, 'scheduleGroup', '', fleet),
  };
  const row = (key: keyof typeof presence): CheckItem => {
    const p = presence[key];
    return { id: `crd/${key}`, label: labels[key], state: p.state, detail: p.detail, ...(p.hint ? { hint: p.hint } : {}) };
  };

  items.push(row('cluster'));
  if (presence.cluster.state === 'ok') {
    const forbidden = forbiddenFor(cp.forbidden, 'clusters.cluster.elotl.co');
    if (forbidden) items.push(gated('nova/clusters', 'Clusters', forbiddenGate(forbidden, cpName), true));
    else if (cp.clusters.length === 0)
      items.push({ id: 'nova/clusters', label: '0 workload clusters connected', state: 'warn', hint: NO_CLUSTERS_HINT });
    else items.push(...cp.clusters.map((c) => clusterRow(c, fleet)));
  }

  items.push(row('schedulePolicy'));
  if (presence.schedulePolicy.state === 'ok') {
    const forbidden = forbiddenFor(cp.forbidden, 'schedulepolicies.policy.elotl.co');
    const n = cp.schedulePolicies;
    if (forbidden) items.push(gated('nova/schedulepolicies', 'SchedulePolicies', forbiddenGate(forbidden, cpName), true));
    else if (n === 0)
      items.push({ id: 'nova/schedulepolicies', label: '0 SchedulePolicies defined', bullet: true, state: 'warn', hint: NO_POLICIES_HINT });
    else
      items.push({
        id: 'nova/schedulepolicies',
        label: `${n} ${n === 1 ? 'SchedulePolicy' : 'SchedulePolicies'} defined`,
        bullet: true,
        state: 'ok',
      });
  }
  items.push(row('scheduleGroup'));

  const states = Object.values(presence).map((p) => p.state);
  if (states.every((s) => s === 'ok')) items.push({ id: 'crd/all', label: 'All Nova Custom Resource Definitions installed', state: 'ok' });
  // The rows above carry the hint.
  else if (states.includes('fail'))
    items.push({ id: 'crd/all', label: 'Not all Nova Custom Resource Definitions are installed', state: 'fail' });
  else items.push({ id: 'crd/all', label: 'Nova Custom Resource Definitions cannot all be checked', state: 'warn', unknown: true });
  return items;
}

import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import type { FleetState } from '../../store/fleet-store.js';
import type { ContextState } from '../../store/types.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../kube/fleet/fleet-namespace.js';
import { contextGate, forbiddenFor, namespaceGate, worst } from './gates.js';
import { AGENT_DEPLOYMENT, crdHint } from './hints.js';
import { podHint } from './pod-hint.js';

interface Part {
  state: CheckState;
  text: string;
  hint?: string;
  unknown?: boolean;
}

function agentPart(state: FleetState, fleet: FleetConfig, context: string, clusterName: string): Part {
  const ctx = state.status.contexts[context] as ContextState;
  const ns = fleet.namespace;
  const install = `connect it: fleetdeck install, or run novactl install agent ${clusterName} in context ${context} (namespace ${ns} and the nova-cluster-init-kubeconfig Secret first)`;
  const gate = namespaceGate(ctx, 'deployments', install);
  if (gate) {
    if (gate.detail.startsWith('not installed')) return { state: 'fail', text: `no agent (namespace ${ns} not found)`, hint: install };
    return {
      state: gate.state,
      text: gate.state === 'pending' ? 'agent loading…' : `agent ${gate.detail}`,
      ...(gate.hint ? { hint: gate.hint } : {}),
      ...(gate.unknown ? { unknown: true } : {}),
    };
  }
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  const d = s.workloads.find((w) => w.kind === 'Deployment' && w.name === AGENT_DEPLOYMENT);
  if (!d) return { state: 'fail', text: `no ${AGENT_DEPLOYMENT} Deployment in ${ns}`, hint: install };
  if (d.desired === 0) {
    return {
      state: 'fail',
      text: 'agent scaled to 0',
      hint: `kubectl --context=${context} -n ${ns} scale deployment/${AGENT_DEPLOYMENT} --replicas=1`,
    };
  }
  if (d.ready >= d.desired) return { state: 'ok', text: `${d.ready}/${d.desired} ready` };
  const selector = Object.entries(d.labels);
  const pods = s.pods.filter(
    (p) => !p.ready && p.reason !== 'Terminating' && selector.length > 0 && selector.every(([k, v]) => p.labels[k] === v),
  );
  const pod = pods[0];
  const hint =
    podHint(context, ns, pod, false) ??
    `its pods were not created: kubectl --context=${context} -n ${ns} describe deployment ${AGENT_DEPLOYMENT}`;
  return { state: d.ready === 0 ? 'fail' : 'warn', text: `${d.ready}/${d.desired} ready${pod?.reason ? ` (${pod.reason})` : ''}`, hint };
}

function registrationParts(state: FleetState, fleet: FleetConfig, context: string, clusterName: string, agentOk: boolean): Part[] {
  const cpName = fleet.controlPlaneContext;
  const gate = contextGate(state, cpName, 'control plane', fleet);
  const cp = state.status.contexts[cpName]?.controlPlane;
  if (gate) {
    if (gate.state === 'pending') return [{ state: 'pending', text: 'registration loading…' }];
    return [{ state: 'warn', unknown: true, text: `registration unknown (${gate.detail.replace(/^unknown: /, '')})` }];
  }
  if (!cp?.synced) return [{ state: 'pending', text: 'registration loading…' }];
  const forbidden = forbiddenFor(cp.forbidden, 'clusters.cluster.elotl.co');
  if (forbidden) return [{ state: 'warn', unknown: true, text: `registration cannot be checked: ${forbidden}` }];
  if (!cp.crds.cluster) return [{ state: 'fail', text: 'not registered (no Cluster CRD)', hint: crdHint(fleet) }];
  const c = cp.clusters.find((x) => x.name === clusterName);
  const logs = `kubectl logs --context=${context} -n ${fleet.namespace} deployment/${AGENT_DEPLOYMENT}`;
  if (!c) {
    return [
      {
        state: 'fail',
        text: 'not registered',
        hint: agentOk
          ? `no Cluster ${clusterName} in ${cpName}: check the agent's --cluster-name and its log: ${logs}`
          : `the agent registers Cluster ${clusterName} once it runs`,
      },
    ];
  }
  if (c.ready === 'True')
    return [
      { state: 'ok', text: 'registered' },
      { state: 'ok', text: 'Ready' },
    ];
  return [
    { state: 'ok', text: 'registered' },
    { state: 'fail', text: `Ready=${c.ready ?? 'unknown'}`, hint: `look at the agent's log: ${logs}` },
  ];
}

export function agentItem(state: FleetState, fleet: FleetConfig, w: { context: string; clusterName: string }): CheckItem {
  const id = `agent/${w.context}`;
  const label = `Agent in ${w.context}${w.clusterName !== w.context ? ` (cluster ${w.clusterName})` : ''}`;
  const gate = contextGate(state, w.context, 'workload', fleet);
  const parts: Part[] = [];
  if (gate) parts.push({ state: gate.state, text: gate.detail, ...(gate.hint ? { hint: gate.hint } : {}) });
  else parts.push(agentPart(state, fleet, w.context, w.clusterName));
  const agentOk = parts[0]?.state === 'ok';
  parts.push(...registrationParts(state, fleet, w.context, w.clusterName, agentOk));
  const s = worst(parts.map((p) => p.state));
  const hint = parts.find((p) => p.state === s && p.hint)?.hint ?? parts.find((p) => p.hint && p.state !== 'ok')?.hint;
  const unknown = parts.some((p) => p.unknown);
  return { id, label, state: s, detail: parts.map((p) => p.text).join(', '), ...(hint ? { hint } : {}), ...(unknown ? { unknown } : {}) };
}

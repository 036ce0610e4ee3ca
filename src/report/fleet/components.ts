import type { CheckItem } from '../../checklist/checklist.js';
import type { ContextState } from '../../store/types.js';
import type { ComponentPod } from '../../kube/fleet/component-pod.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../kube/fleet/fleet-namespace.js';
import { worst, type Gate } from './gates.js';
import { podHint } from './pod-hint.js';

export interface Component {
  id: string;
  label: string;
  key: string;
  value: string;
}

/** The control-plane components and the pod labels they carry in the hosting namespace. */
export const COMPONENTS: readonly Component[] = [
  { id: 'apiserver', label: 'API Server status', key: 'component', value: 'apiserver' },
  { id: 'controller-manager', label: 'Kube-controller-manager status', key: 'component', value: 'controller-manager' },
  { id: 'etcd', label: 'ETCD status', key: 'app', value: 'etcd' },
  { id: 'nova-scheduler', label: 'Nova scheduler status', key: 'component', value: 'nova-scheduler' },
];

/** Pods of one component, without those on their way out (unless nothing else is left). */
function componentPods(s: FleetNamespaceSummary, key: string, value: string): ComponentPod[] {
  const all = s.pods.filter((p) => p.labels[key] === value);
  const live = all.filter((p) => p.reason !== 'Terminating');
  return live.length ? live : all;
}

export function componentItem(comp: Component, ctx: ContextState, fleet: FleetConfig): CheckItem {
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  const id = `nova/${comp.id}`;
  const ns = s.namespace;
  const pods = componentPods(s, comp.key, comp.value);
  const workloads = s.workloads.filter((w) => w.labels[comp.key] === comp.value);
  if (pods.length === 0 && workloads.length === 0) {
    return {
      id,
      label: comp.label,
      state: 'fail',
      detail: 'not found',
      hint: `no pod labelled ${comp.key}=${comp.value} in namespace ${ns} of ${ctx.name}: install the control plane (fleetdeck install, or kubectl --context=${fleet.hostingContext} apply -k install/overlays/cp-ha -n ${ns})`,
    };
  }
  const desired = workloads.length ? workloads.reduce((n, w) => n + w.desired, 0) : pods.length;
  const ready = pods.filter((p) => p.ready).length;
  if (desired === 0) {
    const w = workloads[0];
    return {
      id,
      label: comp.label,
      state: 'fail',
      detail: 'scaled to 0',
      hint: `scale it up: kubectl --context=${ctx.name} -n ${ns} scale ${(w?.kind ?? 'Deployment').toLowerCase()}/${w?.name ?? comp.value} --replicas=3`,
    };
  }
  if (ready >= desired) return { id, label: comp.label, state: 'ok', detail: 'Running' };
  const bad = pods
    .filter((p) => !p.ready)
    .sort((a, b) => Number(a.phase === 'Running') - Number(b.phase === 'Running') || a.name.localeCompare(b.name));
  const first = bad[0];
  let detail: string;
  let hint: string | undefined;
  if (!first) {
    detail = `No pods ${ready}/${desired}`;
    const w = workloads[0];
    hint =
      `its pods were not created: kubectl --context=${ctx.name} -n ${ns} describe ${(w?.kind ?? 'Deployment').toLowerCase()} ${w?.name ?? ''}`.trimEnd();
  } else {
    const word = ready > 0 ? 'Running' : first.phase;
    detail = `${word} ${ready}/${desired}${first.reason ? ` (${first.reason})` : ''}`;
    hint = podHint(ctx.name, ns, first, comp.id === 'etcd');
  }
  return { id, label: comp.label, state: ready === 0 ? 'fail' : 'warn', detail, ...(hint ? { hint } : {}) };
}

export function controlPlaneSummaryItem(items: CheckItem[], gate: Gate | undefined): CheckItem {
  const id = 'nova/healthy';
  if (gate) {
    if (gate.state === 'pending') return { id, label: 'Checking Nova Control Plane health', state: 'pending' };
    if (gate.state === 'warn') return { id, label: 'Nova Control Plane health cannot be checked', state: 'warn', unknown: true };
    if (gate.detail.startsWith('not installed')) return { id, label: 'Nova Control Plane is not installed', state: 'fail' };
    return { id, label: 'Nova Control Plane health is unknown', state: 'fail' };
  }
  const s = worst(items.map((i) => i.state));
  if (s === 'fail') return { id, label: 'Nova Control Plane is not healthy', state: 'fail' };
  if (s === 'warn') return { id, label: 'Nova Control Plane is degraded', state: 'warn' };
  if (s === 'pending' || s === 'running') return { id, label: 'Checking Nova Control Plane health', state: 'pending' };
  return { id, label: 'Nova Control Plane is healthy', state: 'ok' };
}

import { fleetFilePath } from '../config/fleet-config.js';
import type { CheckItem, CheckState } from '../checklist/checklist.js';
import type { FleetState } from '../store/fleet-store.js';
import { reachabilityLine } from '../store/selectors.js';
import type { ContextState } from '../store/types.js';
import type { ComponentPod } from '../kube/component-pod.js';
import type { ControlPlaneSummary, NovaCluster } from '../kube/control-plane.js';
import type { FleetConfig } from '../kube/fleet.js';
import type { FleetNamespaceSummary } from '../kube/fleet-namespace.js';

/** Certificates closer than this to their expiry are a warning. */
export const CERT_WARN_DAYS = 30;

const DAY_MS = 86_400_000;

/** The hints `kubectl nova status` prints, word for word. */
export const NO_CLUSTERS_HINT =
  'please connect at least one Cluster, otherwise Nova does not have a target cluster to run your workloads. Connecting clusters can be done by running novactl install agent <cluster-name> in correct Kube context.';
export const NO_POLICIES_HINT =
  'please create at least one SchedulePolicy, otherwise Nova does not know where to run your workloads. SchedulePolicy spec: https://docs.elotl.co/nova/intro';

/** The agent Deployment in each workload cluster. */
export const AGENT_DEPLOYMENT = 'nova-agent';
/** The LoadBalancer Service that exposes the control plane's API server. */
export const APISERVER_SERVICE = 'apiserver';

interface Component {
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

const SEVERITY: Record<CheckState, number> = { info: 0, ok: 1, running: 2, pending: 3, warn: 4, fail: 5 };

function worst(states: CheckState[]): CheckState {
  return states.reduce<CheckState>((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a), 'ok');
}

/** Why a row cannot be checked (yet): its context is missing, unreachable, loading, or a list is forbidden. */
interface Gate {
  state: CheckState;
  detail: string;
  hint?: string;
}

/** The part of a joined `forbidden` message about one resource ("cannot list pods in namespace elotl: …"). */
export function forbiddenFor(forbidden: string | undefined, resource: string): string | undefined {
  if (!forbidden) return undefined;
  return forbidden.split(/; (?=cannot list )/).find((part) => part.startsWith(`cannot list ${resource} `) || part.startsWith(`cannot list ${resource}:`));
}

function missingContextHint(role: 'hosting' | 'control plane' | 'workload', name: string, fleet: FleetConfig): string {
  switch (role) {
    case 'hosting':
      return `add the hosting cluster's context to the kubeconfig (KUBECONFIG, --kubeconfig), or name another with --hosting-context`;
    case 'control plane':
      return `the install writes it: fleetdeck install, or kubectl nova --context=${fleet.hostingContext} get kubeconfig -n ${fleet.namespace} > nova_kubeconfig.yaml and add that file to KUBECONFIG (or name another with --control-plane-context)`;
    case 'workload':
      return `add context ${name} to the kubeconfig, or drop it from the fleet (--context, or ${fleetFilePath()})`;
  }
}

/** Undefined when the context answers; otherwise what to show instead of a result. */
function contextGate(state: FleetState, name: string, role: 'hosting' | 'control plane' | 'workload', fleet: FleetConfig): Gate | undefined {
  const c = state.contexts[name];
  if (!c) return { state: 'fail', detail: `unknown: context ${name} is not in the kubeconfig`, hint: missingContextHint(role, name, fleet) };
  if (c.reachability === 'unknown') return { state: 'pending', detail: `connecting to ${name}…` };
  if (c.reachability === 'unreachable') {
    return {
      state: 'fail',
      detail: `unknown: ${name} ${reachabilityLine(c)}`,
      hint: `check that the API server is up and reachable from here: kubectl --context=${name} get --raw /readyz`,
    };
  }
  return undefined;
}

function forbiddenGate(message: string, ctx: string): Gate {
  return { state: 'warn', detail: `cannot check: ${message}`, hint: `grant the user of context ${ctx} the permission named above, or use a context that has it` };
}

/** Gate of the fleet namespace slice for rows that need `resource` (namespace existence included). */
function namespaceGate(ctx: ContextState, resource: string, install: string): Gate | undefined {
  const s = ctx.fleetNamespace;
  if (!s || !s.synced) return { state: 'pending', detail: 'loading…' };
  const f = forbiddenFor(s.forbidden, resource);
  if (f) return forbiddenGate(f, ctx.name);
  if (!s.exists && !forbiddenFor(s.forbidden, 'namespaces')) {
    return { state: 'fail', detail: `not installed (namespace ${s.namespace} not found in ${ctx.name})`, hint: install };
  }
  return undefined;
}

function gated(id: string, label: string, gate: Gate, withHint: boolean): CheckItem {
  return { id, label, state: gate.state, detail: gate.detail, ...(withHint && gate.hint ? { hint: gate.hint } : {}) };
}

const imageProblem = (reason: string | undefined) => !!reason && /ImagePull|ErrImage|InvalidImageName/.test(reason);

function podHint(ctx: string, ns: string, pod: ComponentPod | undefined, etcd: boolean): string | undefined {
  if (!pod) return undefined;
  const describe = `kubectl --context=${ctx} -n ${ns} describe pod ${pod.name}`;
  const reason = pod.reason ?? '';
  if (imageProblem(reason)) return `the image cannot be pulled: check its name and the registry access of ${ctx}: ${describe}`;
  if (etcd && pod.phase === 'Pending') {
    return `ETCD pods will not start if the storage provisioner is not configured for a hosting cluster: ${ctx} MUST have a storage provisioner and a default StorageClass (etcd runs as a StatefulSet and requires a PersistentVolume); check kubectl --context=${ctx} get storageclass,pvc -n ${ns}`;
  }
  if (/Unschedulable/.test(reason)) {
    if (/anti-affinity/.test(reason)) {
      return `the HA overlay spreads 3 replicas of each component across zones (podAntiAffinity on topology.kubernetes.io/zone): ${ctx} needs schedulable nodes in 3 zones; ${describe}`;
    }
    return `no node can take it (resources, taints, affinity): ${describe}`;
  }
  if (/CrashLoopBackOff|Error|OOMKilled|ExitCode|Signal/.test(reason)) return `see why it exits: kubectl --context=${ctx} -n ${ns} logs ${pod.name} --previous`;
  return describe;
}

/** Pods of one component, without those on their way out (unless nothing else is left). */
function componentPods(s: FleetNamespaceSummary, key: string, value: string): ComponentPod[] {
  const all = s.pods.filter((p) => p.labels[key] === value);
  const live = all.filter((p) => p.reason !== 'Terminating');
  return live.length ? live : all;
}

function componentItem(comp: Component, ctx: ContextState, fleet: FleetConfig): CheckItem {
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
  const bad = pods.filter((p) => !p.ready).sort((a, b) => Number(a.phase === 'Running') - Number(b.phase === 'Running') || a.name.localeCompare(b.name));
  const first = bad[0];
  let detail: string;
  let hint: string | undefined;
  if (!first) {
    detail = `No pods ${ready}/${desired}`;
    const w = workloads[0];
    hint = `its pods were not created: kubectl --context=${ctx.name} -n ${ns} describe ${(w?.kind ?? 'Deployment').toLowerCase()} ${w?.name ?? ''}`.trimEnd();
  } else {
    const word = ready > 0 ? 'Running' : first.phase;
    detail = `${word} ${ready}/${desired}${first.reason ? ` (${first.reason})` : ''}`;
    hint = podHint(ctx.name, ns, first, comp.id === 'etcd');
  }
  return { id, label: comp.label, state: ready === 0 ? 'fail' : 'warn', detail, ...(hint ? { hint } : {}) };
}

function controlPlaneSummaryItem(items: CheckItem[], gate: Gate | undefined): CheckItem {
  const id = 'nova/healthy';
  if (gate) {
    if (gate.state === 'pending') return { id, label: 'Checking Nova Control Plane health', state: 'pending' };
    if (gate.state === 'warn') return { id, label: 'Nova Control Plane health cannot be checked', state: 'warn' };
    if (gate.detail.startsWith('not installed')) return { id, label: 'Nova Control Plane is not installed', state: 'fail' };
    return { id, label: 'Nova Control Plane health is unknown', state: 'fail' };
  }
  const s = worst(items.map((i) => i.state));
  if (s === 'fail') return { id, label: 'Nova Control Plane is not healthy', state: 'fail' };
  if (s === 'warn') return { id, label: 'Nova Control Plane is degraded', state: 'warn' };
  if (s === 'pending' || s === 'running') return { id, label: 'Checking Nova Control Plane health', state: 'pending' };
  return { id, label: 'Nova Control Plane is healthy', state: 'ok' };
}

function serviceItem(ctx: ContextState, fleet: FleetConfig): CheckItem {
  const id = 'nova/apiserver-service';
  const label = 'API Server Service';
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  const svc = s.services.find((x) => x.name === APISERVER_SERVICE);
  if (!svc) {
    return {
      id,
      label,
      state: 'fail',
      detail: 'not found',
      hint: `create it: kubectl --context=${fleet.hostingContext} create -f install/base/control-plane/apiserver.yaml -n ${fleet.namespace} (or fleetdeck install)`,
    };
  }
  if (svc.ingress.length === 0) {
    return {
      id,
      label,
      state: 'warn',
      detail: svc.type === 'LoadBalancer' ? 'Pending (no external IP or hostname)' : `${svc.type}, no external IP or hostname`,
      hint: `if it's still Pending after a few minutes, check whether ${ctx.name} has a working ingress controller / load balancer: Nova API Server is exposed as a LoadBalancer Service and needs an IP address or domain reachable from the Nova Agents in the workload clusters and from users`,
    };
  }
  return { id, label, state: 'ok', detail: svc.ingress.join(', ') };
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function certItem(ctx: ContextState, fleet: FleetConfig, now: number): CheckItem {
  const id = 'nova/certificates';
  const label = 'Control plane certificates';
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  if (s.secretsForbidden) return gated(id, label, forbiddenGate(s.secretsForbidden, ctx.name), true);
  const rotate = `rotate them: re-generate the certificate Secrets, apply them to ${fleet.hostingContext} and restart the Nova Control Plane components (fleetdeck install can do it)`;
  if (s.certs.length === 0) {
    return {
      id,
      label,
      state: 'warn',
      detail: 'none found',
      hint: `no Secret in namespace ${s.namespace} of ${ctx.name} holds a certificate (*.crt): create them with fleetdeck install (or kubectl nova install certs)`,
    };
  }
  const sorted = [...s.certs].sort((a, b) => a.notAfter - b.notAfter);
  const first = sorted[0]!;
  const expired = sorted.filter((c) => c.notAfter <= now);
  if (expired.length > 0) {
    const more = expired.length > 1 ? ` (+${expired.length - 1} more expired)` : '';
    return { id, label, state: 'fail', detail: `${first.secret}/${first.key} (${first.subject}) expired on ${isoDate(first.notAfter)}${more}`, hint: rotate };
  }
  const days = Math.floor((first.notAfter - now) / DAY_MS);
  if (days < CERT_WARN_DAYS) {
    const when = days === 0 ? 'in less than a day' : `in ${days} day${days === 1 ? '' : 's'}`;
    return { id, label, state: 'warn', detail: `${first.secret}/${first.key} (${first.subject}) expires ${when} (${isoDate(first.notAfter)})`, hint: rotate };
  }
  return { id, label, state: 'ok', detail: `valid for ${days} days` };
}

function hostingItems(state: FleetState, fleet: FleetConfig, now: number): CheckItem[] {
  const items: CheckItem[] = [{ id: 'nova/title', label: 'Checking status of Nova Control Plane Components', state: 'info' }];
  const install = `install the control plane: fleetdeck install (creates namespace ${fleet.namespace} in ${fleet.hostingContext})`;
  const ctxGate = contextGate(state, fleet.hostingContext, 'hosting', fleet);
  const ctx = state.contexts[fleet.hostingContext];
  const gateFor = (resource: string) => ctxGate ?? (ctx ? namespaceGate(ctx, resource, install) : undefined);

  const podsGate = gateFor('pods') ?? gateFor('deployments') ?? gateFor('statefulsets');
  const components = COMPONENTS.map((comp, i) =>
    podsGate ? gated(`nova/${comp.id}`, comp.label, podsGate, i === 0) : componentItem(comp, ctx!, fleet),
  );
  items.push(...components, controlPlaneSummaryItem(components, podsGate));

  const svcGate = gateFor('services');
  items.push(svcGate ? gated('nova/apiserver-service', 'API Server Service', svcGate, !podsGate) : serviceItem(ctx!, fleet));
  // Secrets are not among the main lists (their denial is `secretsForbidden`): this gate is load and namespace only.
  const certGate = gateFor('secrets');
  items.push(certGate ? gated('nova/certificates', 'Control plane certificates', certGate, !podsGate && !svcGate) : certItem(ctx!, fleet, now));
  return items;
}

function crdHint(fleet: FleetConfig): string {
  return `install them: kubectl --context=${fleet.controlPlaneContext} create -f install/base/control-plane/nova_crds.yaml (or fleetdeck install)`;
}

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

function crdItems(state: FleetState, fleet: FleetConfig): CheckItem[] {
  const items: CheckItem[] = [{ id: 'crd/title', label: 'Checking presence of Nova Custom Resource Definitions', state: 'info' }];
  const labels = { cluster: 'Cluster CRD presence', schedulePolicy: 'SchedulePolicy CRD presence', scheduleGroup: 'ScheduleGroup CRD presence' };
  const cpName = fleet.controlPlaneContext;
  let gate = contextGate(state, cpName, 'control plane', fleet);
  const cp = state.contexts[cpName]?.controlPlane;
  if (!gate && (!cp || !cp.synced)) gate = { state: 'pending', detail: 'loading…' };
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
    else if (cp.clusters.length === 0) items.push({ id: 'nova/clusters', label: '0 workload clusters connected', state: 'warn', hint: NO_CLUSTERS_HINT });
    else items.push(...cp.clusters.map((c) => clusterRow(c, fleet)));
  }

  items.push(row('schedulePolicy'));
  if (presence.schedulePolicy.state === 'ok') {
    const forbidden = forbiddenFor(cp.forbidden, 'schedulepolicies.policy.elotl.co');
    const n = cp.schedulePolicies;
    if (forbidden) items.push(gated('nova/schedulepolicies', 'SchedulePolicies', forbiddenGate(forbidden, cpName), true));
    else if (n === 0) items.push({ id: 'nova/schedulepolicies', label: '0 SchedulePolicies defined', bullet: true, state: 'warn', hint: NO_POLICIES_HINT });
    else items.push({ id: 'nova/schedulepolicies', label: `${n} ${n === 1 ? 'SchedulePolicy' : 'SchedulePolicies'} defined`, bullet: true, state: 'ok' });
  }
  items.push(row('scheduleGroup'));

  const states = Object.values(presence).map((p) => p.state);
  if (states.every((s) => s === 'ok')) items.push({ id: 'crd/all', label: 'All Nova Custom Resource Definitions installed', state: 'ok' });
  // The rows above carry the hint.
  else if (states.includes('fail')) items.push({ id: 'crd/all', label: 'Not all Nova Custom Resource Definitions are installed', state: 'fail' });
  else items.push({ id: 'crd/all', label: 'Nova Custom Resource Definitions cannot all be checked', state: 'warn' });
  return items;
}

interface Part {
  state: CheckState;
  text: string;
  hint?: string;
}

function agentPart(state: FleetState, fleet: FleetConfig, context: string, clusterName: string): Part {
  const ctx = state.contexts[context] as ContextState;
  const ns = fleet.namespace;
  const install = `connect it: fleetdeck install, or run novactl install agent ${clusterName} in context ${context} (namespace ${ns} and the nova-cluster-init-kubeconfig Secret first)`;
  const gate = namespaceGate(ctx, 'deployments', install);
  if (gate) {
    if (gate.detail.startsWith('not installed')) return { state: 'fail', text: `no agent (namespace ${ns} not found)`, hint: install };
    return { state: gate.state, text: gate.state === 'pending' ? 'agent loading…' : `agent ${gate.detail}`, ...(gate.hint ? { hint: gate.hint } : {}) };
  }
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  const d = s.workloads.find((w) => w.kind === 'Deployment' && w.name === AGENT_DEPLOYMENT);
  if (!d) return { state: 'fail', text: `no ${AGENT_DEPLOYMENT} Deployment in ${ns}`, hint: install };
  if (d.desired === 0) {
    return { state: 'fail', text: 'agent scaled to 0', hint: `kubectl --context=${context} -n ${ns} scale deployment/${AGENT_DEPLOYMENT} --replicas=1` };
  }
  if (d.ready >= d.desired) return { state: 'ok', text: `${d.ready}/${d.desired} ready` };
  const selector = Object.entries(d.labels);
  const pods = s.pods.filter((p) => !p.ready && p.reason !== 'Terminating' && selector.length > 0 && selector.every(([k, v]) => p.labels[k] === v));
  const pod = pods[0];
  const hint =
    podHint(context, ns, pod, false) ??
    `its pods were not created: kubectl --context=${context} -n ${ns} describe deployment ${AGENT_DEPLOYMENT}`;
  return { state: d.ready === 0 ? 'fail' : 'warn', text: `${d.ready}/${d.desired} ready${pod?.reason ? ` (${pod.reason})` : ''}`, hint };
}

function registrationParts(state: FleetState, fleet: FleetConfig, context: string, clusterName: string, agentOk: boolean): Part[] {
  const cpName = fleet.controlPlaneContext;
  const gate = contextGate(state, cpName, 'control plane', fleet);
  const cp = state.contexts[cpName]?.controlPlane;
  if (gate) {
    if (gate.state === 'pending') return [{ state: 'pending', text: 'registration loading…' }];
    return [{ state: 'warn', text: `registration unknown (${gate.detail.replace(/^unknown: /, '')})` }];
  }
  if (!cp || !cp.synced) return [{ state: 'pending', text: 'registration loading…' }];
  const forbidden = forbiddenFor(cp.forbidden, 'clusters.cluster.elotl.co');
  if (forbidden) return [{ state: 'warn', text: `registration cannot be checked: ${forbidden}` }];
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
  if (c.ready === 'True') return [{ state: 'ok', text: 'registered' }, { state: 'ok', text: 'Ready' }];
  return [{ state: 'ok', text: 'registered' }, { state: 'fail', text: `Ready=${c.ready ?? 'unknown'}`, hint: `look at the agent's log: ${logs}` }];
}

function agentItem(state: FleetState, fleet: FleetConfig, w: { context: string; clusterName: string }): CheckItem {
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
  return { id, label, state: s, detail: parts.map((p) => p.text).join(', '), ...(hint ? { hint } : {}) };
}

/** "v1.20" from "v1.20.2", "1.20" or "v1.20.5-eks-1"; undefined when it is not a version. */
export function minorVersion(v: string | undefined): string | undefined {
  const m = v?.match(/^v?(\d+)\.(\d+)/);
  return m ? `v${m[1]}.${m[2]}` : undefined;
}

function versionsItem(state: FleetState, fleet: FleetConfig): CheckItem | undefined {
  if (fleet.workloads.length === 0) return undefined;
  const id = 'workloads/versions';
  const label = 'Kubernetes versions';
  const clusters = state.contexts[fleet.controlPlaneContext]?.controlPlane?.clusters ?? [];
  const byMinor = new Map<string, string[]>();
  const unknown: string[] = [];
  let loading = false;
  for (const w of fleet.workloads) {
    const ctx = state.contexts[w.context];
    const minor = minorVersion(ctx?.version) ?? minorVersion(clusters.find((c) => c.name === w.clusterName)?.k8sVersion);
    if (minor) {
      const list = byMinor.get(minor) ?? [];
      list.push(w.context);
      byMinor.set(minor, list);
    } else {
      unknown.push(w.context);
      if (ctx?.reachability === 'unknown') loading = true;
    }
  }
  const unknownText = unknown.length ? `unknown: ${unknown.join(', ')}` : '';
  if (byMinor.size === 0) return { id, label, state: loading ? 'pending' : 'warn', detail: loading ? 'loading…' : unknownText };
  const minors = [...byMinor.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  if (minors.length === 1) {
    if (!unknownText) return { id, label, state: 'ok', detail: `consistent (${minors[0]})` };
    return { id, label, state: loading ? 'pending' : 'warn', detail: `${minors[0]}; ${unknownText}` };
  }
  const listed = minors.map((m) => `${m} (${(byMinor.get(m) ?? []).join(', ')})`).join(', ');
  return {
    id,
    label,
    state: 'warn',
    detail: `${listed}${unknownText ? `; ${unknownText}` : ''}`,
    hint: `run the same Kubernetes minor version in every workload cluster, so workloads behave the same wherever Nova places them: upgrade the older ones to ${minors.at(-1)}`,
  };
}

function workloadItems(state: FleetState, fleet: FleetConfig): CheckItem[] {
  const items: CheckItem[] = [{ id: 'workloads/title', label: 'Checking workload clusters', state: 'info' }];
  if (fleet.workloads.length === 0) {
    items.push({
      id: 'workloads/none',
      label: '0 workload contexts in the fleet',
      state: 'warn',
      hint: `name them with --context <context> (once per cluster) or under workloads: in ${fleetFilePath()}`,
    });
    return items;
  }
  items.push(...fleet.workloads.map((w) => agentItem(state, fleet, w)));
  const versions = versionsItem(state, fleet);
  if (versions) items.push(versions);
  return items;
}

/**
 * The fleet checklist in the wording of `kubectl nova status`, then more: control-plane
 * components, API server Service, CRDs, connected clusters, agents, SchedulePolicies,
 * version skew, certificates. Without a fleet: how to define or install one.
 * A context that cannot be asked never yields a √: its rows say why.
 */
export function fleetChecklist(state: FleetState, now: number = Date.now()): CheckItem[] {
  const fleet = state.fleet;
  if (!fleet) {
    return [
      {
        id: 'fleet/none',
        label: 'No fleet defined',
        state: 'warn',
        hint: `run fleetdeck install, or pass --hosting-context (with --control-plane-context, --namespace and --context for each workload cluster), or write ${fleetFilePath()}`,
      },
    ];
  }
  return [...hostingItems(state, fleet, now), ...crdItems(state, fleet), ...workloadItems(state, fleet)];
}

/** The Cluster objects the control plane knows (the fleet's control-plane context first, else any). */
export function novaClusters(state: FleetState): NovaCluster[] {
  const cp = state.fleet ? state.contexts[state.fleet.controlPlaneContext]?.controlPlane : undefined;
  if (cp) return cp.clusters;
  for (const name of state.order) {
    const c = state.contexts[name]?.controlPlane;
    if (c) return c.clusters;
  }
  return [];
}

/** `kubectl get clusters` as rows of strings: the header, then one row per Cluster. */
export function novaClustersTable(state: FleetState): string[][] {
  const header = ['NAME', 'K8S-VERSION', 'K8S-CLUSTER', 'REGION', 'ZONE', 'READY', 'IDLE', 'STANDBY'];
  return [
    header,
    ...novaClusters(state).map((c) => [c.name, c.k8sVersion ?? '', c.k8sCluster ?? '', c.region ?? '', c.zone ?? '', c.ready ?? '', c.idle ?? '', c.standby ?? '']),
  ];
}

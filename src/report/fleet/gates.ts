import { fleetFilePath } from '../../config/fleet-config.js';
import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import type { FleetState } from '../../store/fleet-store.js';
import { credentialsHint, reachabilityLine } from '../../store/selectors.js';
import type { ContextState } from '../../store/types.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';

const SEVERITY: Record<CheckState, number> = { info: 0, ok: 1, running: 2, pending: 3, warn: 4, fail: 5 };

export function worst(states: CheckState[]): CheckState {
  return states.reduce<CheckState>((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a), 'ok');
}

/** Why a row cannot be checked (yet): its context is missing, unreachable or not ready, loading, or a list is forbidden. */
export interface Gate {
  state: CheckState;
  detail: string;
  hint?: string;
  /** Nothing could be checked (a forbidden list): see CheckItem.unknown. */
  unknown?: boolean;
}

/** The part of a joined `forbidden` message about one resource ("cannot list pods in namespace elotl: …"). */
export function forbiddenFor(forbidden: string | undefined, resource: string): string | undefined {
  if (!forbidden) return undefined;
  return forbidden
    .split(/; (?=cannot list )/)
    .find((part) => part.startsWith(`cannot list ${resource} `) || part.startsWith(`cannot list ${resource}:`));
}

/** The lists a joined `forbidden` message denies, in one short sentence (each denial's whole text names the same missing verbs). */
export function deniedLists(forbidden: string): string {
  const names = [...forbidden.matchAll(/(?:^|; )cannot list ([^\s:]+)/g)].map((m) => m[1]!);
  if (names.length < 2) return forbidden;
  return `cannot list ${names.join(', ')} (needs list and watch on each)`;
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
export function contextGate(
  state: FleetState,
  name: string,
  role: 'hosting' | 'control plane' | 'workload',
  fleet: FleetConfig,
): Gate | undefined {
  const problem = fleet.problems?.[name];
  if (problem) return { state: 'fail', detail: `not checked: ${problem.detail}`, hint: problem.hint };
  const c = state.status.contexts[name];
  if (!c)
    return { state: 'fail', detail: `unknown: context ${name} is not in the kubeconfig`, hint: missingContextHint(role, name, fleet) };
  if (c.reachability === 'unknown') return { state: 'pending', detail: `connecting to ${name}…` };
  if (c.reachability === 'unreachable') {
    return {
      state: 'fail',
      detail: `unknown: ${name} ${reachabilityLine(c)}`,
      hint: `check that the API server is up and reachable from here: kubectl --context=${name} get --raw /readyz`,
    };
  }
  if (c.reachability === 'credentials')
    return { state: 'fail', detail: `unknown: ${name} ${reachabilityLine(c)}`, hint: credentialsHint(c) };
  if (c.notReady !== undefined) {
    return {
      state: 'fail',
      detail: `unknown: ${name} ${reachabilityLine(c)}`,
      hint: `the API server answers but cannot serve requests: check its log and its etcd; kubectl --context=${name} get --raw '/readyz?verbose'`,
    };
  }
  return undefined;
}

export function forbiddenGate(message: string, ctx: string): Gate {
  return {
    state: 'warn',
    unknown: true,
    detail: `cannot check: ${message}`,
    hint: `grant the user of context ${ctx} the permission named above, or use a context that has it`,
  };
}

/** Gate of the fleet namespace slice for rows that need `resource` (namespace existence included). */
export function namespaceGate(ctx: ContextState, resource: string, install: string): Gate | undefined {
  const s = ctx.fleetNamespace;
  if (!s?.synced) return { state: 'pending', detail: 'loading…' };
  const f = forbiddenFor(s.forbidden, resource);
  if (f) return forbiddenGate(f, ctx.name);
  if (!s.exists && !forbiddenFor(s.forbidden, 'namespaces')) {
    return { state: 'fail', detail: `not installed (namespace ${s.namespace} not found in ${ctx.name})`, hint: install };
  }
  return undefined;
}

export function gated(id: string, label: string, gate: Gate, withHint: boolean): CheckItem {
  return {
    id,
    label,
    state: gate.state,
    detail: gate.detail,
    ...(withHint && gate.hint ? { hint: gate.hint } : {}),
    ...(gate.unknown ? { unknown: true } : {}),
  };
}

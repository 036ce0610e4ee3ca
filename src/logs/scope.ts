/**
 * Where `fleetdeck logs` reads: per context a namespace and what selects the pods there, turned
 * into pod queries and then into sources (pod × container).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { selectorMatches, parseSelector } from '../kube/api/selector.js';
import { listLogPods, readWorkloadSelector, type LogPod, type PodQuery } from '../kube/pods/workloads.js';
import { COMPONENTS } from '../install/plan.js';
import { chooseContainers, missingContainer, type ContainerChoice } from './containers.js';
import type { LogSource } from './format.js';
import type { LogTarget } from './target.js';

/** What selects the pods: a TARGET, -l SELECTOR, or the control plane's components. */
export type PodSelection = { target: LogTarget } | { selector: string } | { controlPlane: true };

/** One context of the run. */
export interface LogScope {
  context: string;
  kc: KubeConfig;
  namespace: string;
  selection: PodSelection;
}

/** A scope with its pod query resolved (a workload's selector read from the cluster). */
export interface ResolvedScope extends LogScope {
  query: PodQuery;
  /** For messages: `deployment/web`, `pods matching app=web`, `the control plane's components`. */
  what: string;
}

const COMPONENT_SELECTORS = COMPONENTS.map((c) => parseSelector(c.selector));

/** The pod query of a scope; reads a workload's selector from its cluster. */
export async function resolveScope(scope: LogScope): Promise<ResolvedScope> {
  const s = scope.selection;
  if ('controlPlane' in s) {
    return {
      ...scope,
      query: { match: (labels) => COMPONENT_SELECTORS.some((reqs) => selectorMatches(reqs, labels)) },
      what: `the control plane's components (${COMPONENTS.map((c) => c.selector).join(', ')})`,
    };
  }
  if ('selector' in s) return { ...scope, query: { labelSelector: s.selector }, what: `pods matching ${s.selector}` };
  const { kind, name } = s.target;
  if (kind === 'pod') return { ...scope, query: { name }, what: `pod ${name}` };
  const selector = await withContext(scope.context, readWorkloadSelector(scope.kc, scope.namespace, kind, name));
  return { ...scope, query: { labelSelector: selector }, what: `${kind}/${name}` };
}

/** A failed request of a context: one line naming the context (exit 1). */
export async function withContext<T>(context: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`context ${context}: ${err.message}`, err.exitCode);
    throw new UserError(`context ${context}: ${describeError(err)}`);
  }
}

export const isOnePod = (scope: LogScope): boolean => 'target' in scope.selection && scope.selection.target.kind === 'pod';

/** The sources of one pod of a scope (kubectl's and stern's container rules). */
export function podSources(scope: ResolvedScope, pod: LogPod, choice: Omit<ContainerChoice, 'onePod'>): LogSource[] {
  return chooseContainers(pod, { ...choice, onePod: isOnePod(scope) }).map((container) => ({
    context: scope.context,
    namespace: scope.namespace,
    pod: pod.name,
    container,
  }));
}

export interface ScopePods {
  scope: ResolvedScope;
  pods: LogPod[];
}

/** Lists the pods of every scope (in parallel). A named pod that is not there: one line, exit 1. */
export async function listScopes(scopes: readonly ResolvedScope[]): Promise<ScopePods[]> {
  return Promise.all(
    scopes.map(async (scope) => {
      const pods = (await withContext(scope.context, listLogPods(scope.kc, scope.namespace, scope.query))).filter((p) => !p.deleting);
      if (isOnePod(scope) && pods.length === 0) {
        throw new UserError(`context ${scope.context}: pod "${scope.query.name}" not found in namespace ${scope.namespace}`);
      }
      return { scope, pods };
    }),
  );
}

/**
 * Every source of the listed pods. -c naming a container none of them has: the containers they
 * have, one line, exit 1.
 */
export function allSources(listed: readonly ScopePods[], choice: Omit<ContainerChoice, 'onePod'>): LogSource[] {
  const sources = listed.flatMap(({ scope, pods }) => pods.flatMap((p) => podSources(scope, p, choice)));
  const pods = listed.flatMap((l) => l.pods);
  if (choice.container !== undefined && sources.length === 0 && pods.length > 0) {
    throw new UserError(missingContainer(choice.container, pods));
  }
  return sources;
}

/** The line when nothing matched (exit 1 without -f; a wait with -f). */
export function nothingMatched(scopes: readonly ResolvedScope[]): string {
  const where = scopes.map((s) => `namespace ${s.namespace} of ${s.context}`).join(', ');
  const what = [...new Set(scopes.map((s) => s.what))].join(', ');
  return `no pods for ${what} in ${where}`;
}

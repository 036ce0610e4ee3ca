/**
 * Gathering the prerequisite checks' facts from the clusters (through src/kube), concurrently
 * per context, and reporting every item as it moves pending → running → result on one board.
 */
import type { CheckItem } from '../../checklist/checklist.js';
import { ProgressBoard } from '../../checklist/progress-board.js';
import { reviewPermissions } from '../../kube/api/access-review.js';
import { DEFAULT_TIMEOUT_MS, describeError } from '../../kube/transport/client.js';
import { apiGroupNames, serverVersion } from '../../kube/api/discovery.js';
import { listIngressClasses } from '../../kube/api/ingress-classes.js';
import { listNodes } from '../../kube/nodes/node-list.js';
import { findLoadBalancer } from '../../kube/api/service.js';
import { listStorageClasses } from '../../kube/storage/classes.js';
import { permissionsCheck } from './access.js';
import { zoneCheck } from './topology.js';
import type { PrecheckContext, PrecheckInput, PrecheckResult, Verdict } from './types.js';
import {
  AUTOPILOT_API_GROUP,
  autopilotCheck,
  defaultStorageClassCheck,
  ingressCheck,
  loadBalancerCloud,
  oneLine,
  reachableCheck,
  summarize,
  versionCheck,
  workloadVersionsCheck,
} from './verdicts.js';

/** Check ids: `<role>/<context>/<check>`, and `workloads/versions` for the comparison. */
export type CheckKey = 'reachable' | 'version' | 'autopilot' | 'storage-class' | 'ingress' | 'permissions' | 'topology';

/** The id of one check of one context. */
export function checkId(role: 'hosting' | 'workload', context: string, check: CheckKey): string {
  return `${role}/${context}/${check}`;
}

export const WORKLOAD_VERSIONS_ID = 'workloads/versions';

interface Planned {
  key: CheckKey;
  label: string;
  /** Decides the check from the server version the reachability probe got; throws when the cluster could not answer. */
  run: (version: string) => Promise<Verdict>;
  /** How to check by hand when the cluster could not answer. */
  manual: string;
}

/**
 * Checks one context: reachability first, then every other check at once (a check whose
 * requests fail is a warning saying how to check by hand). Returns the server version, or
 * undefined when the context is not reachable (its other checks are then skipped).
 */
async function checkContext(
  board: ProgressBoard,
  role: 'hosting' | 'workload',
  ctx: PrecheckContext,
  checks: Planned[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const id = (key: CheckKey) => checkId(role, ctx.name, key);
  board.replace(id('reachable'), { state: 'running' });
  let version: string;
  try {
    signal?.throwIfAborted();
    version = await serverVersion(ctx.kc, timeoutMs);
    board.replace(id('reachable'), reachableCheck(ctx.name, { version }));
  } catch (err) {
    board.replace(id('reachable'), reachableCheck(ctx.name, { error: err }));
    for (const c of checks) board.replace(id(c.key), { state: 'info', detail: 'skipped: not reachable' });
    return undefined;
  }
  for (const c of checks) board.replace(id(c.key), { state: 'running' });
  await Promise.all(
    checks.map(async (c) => {
      try {
        signal?.throwIfAborted();
        board.replace(id(c.key), await c.run(version));
      } catch (err) {
        board.replace(id(c.key), {
          state: 'warn',
          detail: `could not check: ${oneLine(describeError(err))}`,
          hint: `check it by hand: ${c.manual}`,
        });
      }
    }),
  );
  return version;
}

/** Memoizes a fetch so checks of one context share it. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

function hostingChecks(input: PrecheckInput, timeoutMs: number): Planned[] {
  const { name, kc } = input.hosting;
  const nodes = once(() => listNodes(kc, timeoutMs));
  const groups = once(() => apiGroupNames(kc, timeoutMs));
  const kubectl = `kubectl --context ${name}`;
  const checks: Planned[] = [
    { key: 'version', label: `${name}: Kubernetes version`, run: async (version) => versionCheck(version), manual: `${kubectl} version` },
    {
      key: 'autopilot',
      label: `${name}: not GKE Autopilot`,
      run: async () => autopilotCheck({ apiGroups: await groups(), nodes: await nodes() }),
      manual: `${kubectl} api-versions | grep ${AUTOPILOT_API_GROUP}`,
    },
    {
      key: 'storage-class',
      label: `${name}: default StorageClass`,
      run: async () => defaultStorageClassCheck(await listStorageClasses(kc, timeoutMs)),
      manual: `${kubectl} get storageclass`,
    },
    {
      key: 'ingress',
      label: `${name}: ingress or load balancer`,
      run: async () => {
        const [ingressClasses, loadBalancer, apiGroups, nodeList] = await Promise.all([
          listIngressClasses(kc, timeoutMs),
          findLoadBalancer(kc, timeoutMs),
          groups().catch(() => []),
          nodes().catch(() => []),
        ]);
        const cloud = loadBalancerCloud(nodeList);
        return ingressCheck({ ingressClasses, apiGroups, ...(loadBalancer ? { loadBalancer } : {}), ...(cloud ? { cloud } : {}) });
      },
      manual: `${kubectl} get ingressclass`,
    },
    {
      key: 'permissions',
      label: `${name}: permissions`,
      run: async () => permissionsCheck(await reviewPermissions(kc, input.permissions.hosting, timeoutMs)),
      manual: `${kubectl} auth can-i --list -n ${input.namespace}`,
    },
  ];
  if (input.ha) {
    checks.push({
      key: 'topology',
      label: `${name}: HA spread over ${input.topologyKey}`,
      run: async () => zoneCheck(await nodes(), input.topologyKey),
      manual: `${kubectl} get nodes -L ${input.topologyKey}`,
    });
  }
  return checks;
}

function workloadChecks(input: PrecheckInput, ctx: PrecheckContext, timeoutMs: number): Planned[] {
  return [
    {
      key: 'permissions',
      label: `${ctx.name}: permissions`,
      run: async () => permissionsCheck(await reviewPermissions(ctx.kc, input.permissions.workload, timeoutMs)),
      manual: `kubectl --context ${ctx.name} auth can-i --list -n ${input.namespace}`,
    },
  ];
}

/**
 * Runs every prerequisite check. Hosting: reachable, server version in the support matrix,
 * not GKE Autopilot, a default StorageClass, an ingress or load-balancer capability, the
 * install's permissions, and with HA enough distinct topology values among schedulable nodes.
 * Workloads: reachable, permissions, and (with two or more) one Kubernetes minor version.
 *
 * Contexts are checked concurrently; `onProgress` gets the whole list each time an item
 * changes (pending → running → ok/warn/fail; `info` "skipped" for checks of an unreachable
 * context). Every item that is not ok carries a one-line hint. Item ids are `checkId(...)`
 * and `WORKLOAD_VERSIONS_ID`.
 */
export async function runPrechecks(input: PrecheckInput, onProgress?: (items: CheckItem[]) => void): Promise<PrecheckResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const contexts = [
    { role: 'hosting' as const, ctx: input.hosting, checks: hostingChecks(input, timeoutMs) },
    ...input.workloads.map((w) => ({ role: 'workload' as const, ctx: w, checks: workloadChecks(input, w, timeoutMs) })),
  ];

  const initial: CheckItem[] = [];
  for (const { role, ctx, checks } of contexts) {
    initial.push({ id: checkId(role, ctx.name, 'reachable'), label: `${ctx.name}: reachable`, state: 'pending' });
    for (const c of checks) initial.push({ id: checkId(role, ctx.name, c.key), label: c.label, state: 'pending' });
  }
  const compareVersions = input.workloads.length >= 2;
  if (compareVersions) initial.push({ id: WORKLOAD_VERSIONS_ID, label: 'workload clusters: same Kubernetes version', state: 'pending' });

  const board = new ProgressBoard(onProgress);
  board.plan(initial);
  if (compareVersions) board.replace(WORKLOAD_VERSIONS_ID, { state: 'running' });
  const versions = await Promise.all(contexts.map((c) => checkContext(board, c.role, c.ctx, c.checks, timeoutMs, input.signal)));

  if (compareVersions) {
    const workloadVersions = input.workloads.map((w, i) => {
      const version = versions[i + 1];
      return { name: w.name, ...(version ? { version } : {}) };
    });
    board.replace(WORKLOAD_VERSIONS_ID, workloadVersionsCheck(workloadVersions));
  }
  input.signal?.throwIfAborted();
  const items = board.items();
  return { items, ...summarize(items) };
}

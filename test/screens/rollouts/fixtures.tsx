/** The Rollouts tab's tests' fixtures: rollouts, Navarchos states, and the real rollouts feed over fake workflows. */
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { LeaseSummary } from '../../../src/kube/records/lease.js';
import type { NavarchosState, NodeReplacementSummary, NodeRolloutSummary } from '../../../src/kube/navarchos/objects.js';
import type { PodClassification } from '../../../src/rollout/drain/filters.js';
import type { RolloutDryRun } from '../../../src/rollout/runner/dry-run.js';
import type { NodeStatus, PlanNode, RolloutSpec, RolloutState } from '../../../src/rollout/types.js';
import { updateSlice } from '../../../src/store/fleet-store.js';
import { leaseChanged, navarchosSeen, rolloutChanged } from '../../../src/store/rollouts.js';
import { fakeRolloutsFeed, NAVARCHOS_NOT_INSTALLED } from '../../helpers/feeds/rollouts-feed.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, type Screen } from '../../helpers/screens/screen.js';
import { OPTION_ROWS, type OptionRow } from '../../../src/store/rollout-wizard.js';

/**
 * Start times show as a clock time on the day they happened and as a date before it: the rollouts
 * of these tests started minutes ago, so the clock is set to midday, where minutes ago is still today.
 */
export function clockAtMidday(): void {
  beforeEach(() => {
    const midday = new Date();
    midday.setHours(12, 0, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'], now: midday, shouldAdvanceTime: true });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
}

export const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
export const MIN = 60_000;
export const RIGHT = '\u001B[C';

/** Every line at most 80 columns, and fewer lines than the 24 rows. */
export function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

export const NODES: PlanNode[] = [
  ...['a', 'b', 'c', 'd'].map((x, i) => ({
    name: `w1-${x}`,
    labels: { role: 'worker', 'topology.kubernetes.io/zone': `zone-${'abc'[i % 3]}` },
    unschedulable: false,
    ready: true,
  })),
  { name: 'w1-e', labels: { role: 'infra' }, unschedulable: false, ready: true },
  { name: 'w1-f', labels: { role: 'infra' }, unschedulable: false, ready: true },
];

export function spec(name: string, context = 'kind-workload-1', over: Partial<RolloutSpec> = {}): RolloutSpec {
  return {
    name,
    context,
    nodeSelectors: [{ selector: 'role=worker', priority: 10 }],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'wait',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 15 * MIN },
    health: { passes: 3, intervalMs: 5_000, timeoutMs: 10 * MIN },
    ...over,
  };
}

export function node(name: string, priority: number, over: Partial<NodeStatus> = {}): NodeStatus {
  return { name, priority, phase: 'waiting', total: 0, evicted: 0, ignored: 0, failed: 0, cordonedByUs: false, ...over };
}

/** A rollout of six nodes: two done (2 min each), one draining and blocked by a PDB, three waiting. */
export function runningRollout(name = 'rollout-20261122-0530'): RolloutState {
  return {
    spec: spec(name),
    phase: 'Running',
    nodes: [
      node('w1-a', 20, {
        phase: 'done',
        total: 5,
        evicted: 3,
        ignored: 2,
        cordonedByUs: true,
        startedAt: iso(10 * MIN),
        completedAt: iso(8 * MIN),
        replacement: 'w1-new-1',
      }),
      node('w1-b', 20, {
        phase: 'done',
        total: 5,
        evicted: 3,
        ignored: 2,
        cordonedByUs: true,
        startedAt: iso(8 * MIN),
        completedAt: iso(6 * MIN),
      }),
      node('w1-c', 10, {
        phase: 'draining',
        total: 7,
        evicted: 1,
        ignored: 2,
        cordonedByUs: true,
        startedAt: iso(1 * MIN),
        blockingPdb: { namespace: 'default', name: 'web', disruptionsAllowed: 0 },
      }),
      node('w1-d', 10),
      node('w1-e', 10),
      node('w1-f', 10),
    ],
    log: [
      { time: iso(11 * MIN), message: 'created: 6 nodes, 1 at a time, replace by wait' },
      { time: iso(10 * MIN), message: 'w1-a: cordoned' },
      { time: iso(1 * MIN), message: 'w1-c: draining' },
      { time: iso(30_000), message: 'w1-c: eviction blocked by PodDisruptionBudget default/web (0 disruptions allowed)' },
    ],
    updatedAt: iso(1_000),
    owner: { holder: RUNNER, since: iso(11 * MIN) },
  };
}

/** The runner of runningRollout(): a pod (its Lease is pushed beside it). */
export const RUNNER = 'pod/fleetdeck-runner-x-abcde';

/** A rollout's Lease, held by `holder` and renewed `ageMs` ago. */
export function lease(name: string, holder: string | undefined, ageMs: number): LeaseSummary {
  return {
    namespace: 'kube-system',
    name: `fleetdeck-rollout-${name}`,
    labels: { 'app.kubernetes.io/managed-by': 'fleetdeck', 'fleetdeck.io/rollout': name },
    resourceVersion: '1',
    ...(holder ? { holderIdentity: holder, renewTime: iso(ageMs) } : {}),
    leaseDurationSeconds: 30,
    leaseTransitions: 0,
  };
}

export function completedRollout(name: string, context: string): RolloutState {
  return {
    spec: spec(name, context),
    phase: 'Completed',
    nodes: [node('h-1', 10, { phase: 'done', startedAt: iso(90 * MIN), completedAt: iso(88 * MIN) })],
    log: [{ time: iso(91 * MIN), message: 'created' }],
    updatedAt: iso(88 * MIN),
  };
}

export const NOT_INSTALLED = NAVARCHOS_NOT_INSTALLED;

/** Every node's pods evicted but a DaemonSet's, and room for them. */
function evictAll(nodes: string[]): RolloutDryRun {
  return {
    drain: {
      evictionVersion: 'policy/v1',
      nodes: nodes.map((n) => ({ node: n, pods: [pod(`${n}-web`, 'evict'), pod(`${n}-ds`, 'ignored-daemonset')] })),
      room: { fits: true, detail: 'fits' },
    },
    room: [{ priority: 10, nodes, fits: true, detail: 'fits on 2 schedulable Ready nodes: CPU 800m of 3 free' }],
  };
}

export function replacement(nodeName: string, priority: number, over: Partial<NodeReplacementSummary> = {}): NodeReplacementSummary {
  return {
    name: `${nodeName}-x`,
    nodeName,
    priority,
    phase: 'New',
    rollout: 'rollout-x7k2p',
    nodePods: 0,
    evictedPods: 0,
    ignoredPods: 0,
    failedPods: 0,
    failed: [],
    createdAt: iso(20 * MIN),
    ...over,
  };
}

export function navarchosWithRollout(): NavarchosState {
  const rollout: NodeRolloutSummary = {
    name: 'rollout-x7k2p',
    phase: 'InProgress',
    targets: [{ kind: 'selector', target: 'kubernetes.io/role=master', priority: 20 }],
    priorities: [20, 10],
    replacementsCreated: 3,
    replacementsCompleted: 1,
    createdAt: iso(20 * MIN),
  };
  return {
    installed: true,
    synced: true,
    rollouts: [rollout],
    replacements: [
      replacement('h-1', 20, { phase: 'Completed', nodePods: 8, evictedPods: 6, ignoredPods: 2, completionTimestamp: iso(10 * MIN) }),
      replacement('h-2', 10, {
        phase: 'InProgress',
        nodePods: 7,
        evictedPods: 3,
        ignoredPods: 2,
        failedPods: 1,
        failed: [{ name: 'web-1', reason: "Cannot evict pod as it would violate the pod's disruption budget." }],
      }),
      replacement('h-3', 10),
    ],
  };
}

export function pod(name: string, action: PodClassification['action'], over: Partial<PodClassification> = {}): PodClassification {
  return {
    namespace: 'default',
    name,
    uid: `uid-${name}`,
    action,
    reason: action,
    requests: { cpuMilli: 100, memoryBytes: 1 << 20 },
    ...over,
  };
}

/**
 * The dashboard's store and the real rollouts feed over fake workflows that record the calls:
 * every context answers with no rollout yet and Navarchos as given; `push` writes a rollout's
 * state into the slice as the feed's watch would.
 */
export function fakeRollouts(
  opts: {
    navarchos?: Record<string, NavarchosState>;
    dryRun?: (nodes: string[], s: RolloutSpec) => RolloutDryRun;
    inClusterIn?: string[];
  } = {},
) {
  const store = threeContexts();
  const { actions, calls } = fakeRolloutsFeed(store, {
    nodes: NODES,
    dryRun: opts.dryRun ?? evictAll,
    ...(opts.navarchos ? { navarchos: opts.navarchos } : {}),
    ...(opts.inClusterIn ? { inClusterIn: opts.inClusterIn } : {}),
  });
  const push = (context: string, state: RolloutState) => updateSlice(store, 'rollouts', (s) => rolloutChanged(s, context, state));
  const pushNavarchos = (context: string, state: NavarchosState) => updateSlice(store, 'rollouts', (s) => navarchosSeen(s, context, state));
  const pushLease = (context: string, l: LeaseSummary) => updateSlice(store, 'rollouts', (s) => leaseChanged(s, context, l));
  return { store, actions, calls, push, pushNavarchos, pushLease };
}

export type Fake = ReturnType<typeof fakeRollouts>;

export async function openRollouts(
  fake: Fake,
  ui: { readOnly?: boolean; ascii?: boolean } = {},
  onQuit = vi.fn(),
  size?: { columns: number },
): Promise<Screen> {
  const screen = await renderApp(
    appProps(fake.store, {
      actions: { rollouts: fake.actions },
      onQuit,
      ui: { readOnly: ui.readOnly ?? false, ascii: ui.ascii ?? false, color: false },
    }),
    size,
  );
  await screen.waitFor('kind-hosting');
  await screen.press('3');
  await screen.waitFor('Rollouts in 3 contexts');
  // The tab asks its feed to start when first shown.
  expect(fake.calls.shown).toBe(1);
  return screen;
}

/** Open the wizard on kind-workload-1, pick w1-a by name, and stop on the options page. */
export async function toOptions(screen: Screen): Promise<string> {
  await screen.press('n');
  await screen.waitFor('1/6 Context');
  await screen.press(KEYS.down, KEYS.enter);
  await screen.waitFor('Nodes by label selector · kind-workload-1');
  await screen.press(KEYS.enter);
  await screen.waitFor('Nodes by name');
  await screen.press(' ', KEYS.enter);
  await screen.waitFor('Priority of each node');
  await screen.press(KEYS.enter);
  return screen.waitFor('How each node is replaced');
}

const rowOf = (id: OptionRow['id']) => OPTION_ROWS.findIndex((r) => r.id === id);
/** Move the focus down from one row of the options page to another (the rows between skipped). */
export const moveRow = (screen: Screen, from: OptionRow['id'], to: OptionRow['id']) =>
  screen.press(...Array<string>(rowOf(to) - rowOf(from)).fill(KEYS.down));

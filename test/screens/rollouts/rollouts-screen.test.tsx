import os from 'node:os';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LeaseSummary } from '../../../src/kube/records/lease.js';
import type {
  NavarchosState,
  NodeReplacementSummary,
  NodeRolloutRequest,
  NodeRolloutSummary,
} from '../../../src/kube/navarchos/objects.js';
import type { PodClassification } from '../../../src/rollout/drain/filters.js';
import type { Plan } from '../../../src/rollout/plan.js';
import type { RolloutDryRun } from '../../../src/rollout/runner/dry-run.js';
import type { NodeStatus, PlanNode, RolloutSpec, RolloutState } from '../../../src/rollout/types.js';
import type { LogActions, RolloutActions } from '../../../src/store/actions.js';
import type { LogTarget } from '../../../src/store/log-target.js';
import { updateSlice } from '../../../src/store/fleet-store.js';
import {
  actionChanged,
  actionKey,
  leaseChanged,
  navarchosSeen,
  rolloutChanged,
  rolloutsListed,
  watchedContexts,
} from '../../../src/store/rollouts.js';
import { navarchosEtaMs, nodeRows } from '../../../src/screens/rollouts/rows.js';
import { appProps, KEYS, renderApp, threeContexts, waitForFrame, type Screen } from '../../helpers/screen.js';

// Start times show as a clock time on the day they happened and as a date before it: the rollouts
// below started minutes ago, so the clock is set to midday, where minutes ago is still today.
beforeEach(() => {
  const midday = new Date();
  midday.setHours(12, 0, 0, 0);
  vi.useFakeTimers({ toFake: ['Date'], now: midday, shouldAdvanceTime: true });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const MIN = 60_000;
const RIGHT = '\u001B[C';

/** Every line at most 80 columns, and fewer lines than the 24 rows. */
function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

const NODES: PlanNode[] = [
  ...['a', 'b', 'c', 'd'].map((x, i) => ({
    name: `w1-${x}`,
    labels: { role: 'worker', 'topology.kubernetes.io/zone': `zone-${'abc'[i % 3]}` },
    unschedulable: false,
    ready: true,
  })),
  { name: 'w1-e', labels: { role: 'infra' }, unschedulable: false, ready: true },
  { name: 'w1-f', labels: { role: 'infra' }, unschedulable: false, ready: true },
];

function spec(name: string, context = 'kind-workload-1', over: Partial<RolloutSpec> = {}): RolloutSpec {
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

function node(name: string, priority: number, over: Partial<NodeStatus> = {}): NodeStatus {
  return { name, priority, phase: 'waiting', total: 0, evicted: 0, ignored: 0, failed: 0, cordonedByUs: false, ...over };
}

/** A rollout of six nodes: two done (2 min each), one draining and blocked by a PDB, three waiting. */
function runningRollout(name = 'rollout-20261122-0530'): RolloutState {
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
const RUNNER = 'pod/fleetdeck-runner-x-abcde';

/** A rollout's Lease, held by `holder` and renewed `ageMs` ago. */
function lease(name: string, holder: string | undefined, ageMs: number): LeaseSummary {
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

function completedRollout(name: string, context: string): RolloutState {
  return {
    spec: spec(name, context),
    phase: 'Completed',
    nodes: [node('h-1', 10, { phase: 'done', startedAt: iso(90 * MIN), completedAt: iso(88 * MIN) })],
    log: [{ time: iso(91 * MIN), message: 'created' }],
    updatedAt: iso(88 * MIN),
  };
}

const NOT_INSTALLED: NavarchosState = { installed: false, synced: true, rollouts: [], replacements: [] };

function replacement(nodeName: string, priority: number, over: Partial<NodeReplacementSummary> = {}): NodeReplacementSummary {
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

function navarchosWithRollout(): NavarchosState {
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

function pod(name: string, action: PodClassification['action'], over: Partial<PodClassification> = {}): PodClassification {
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
 * The dashboard's store pre-filled as the rollouts feed leaves it once every context answered
 * (no rollout yet; Navarchos as given), and fake actions that record the calls; `push` writes a
 * rollout's state into the slice as the feed's watch would.
 */
function fakeRollouts(
  opts: {
    navarchos?: Record<string, NavarchosState>;
    dryRun?: (nodes: string[], s: RolloutSpec) => RolloutDryRun;
    inClusterIn?: string[];
  } = {},
) {
  const store = threeContexts();
  const order = store.getState().status.order;
  updateSlice(store, 'rollouts', (s) => ({ ...watchedContexts(s, order), status: 'on' }));
  for (const c of order)
    updateSlice(store, 'rollouts', (s) => navarchosSeen(rolloutsListed(s, c, []), c, opts.navarchos?.[c] ?? NOT_INSTALLED));
  const calls = {
    shown: 0,
    runs: [] as RolloutSpec[],
    inCluster: [] as (boolean | undefined)[],
    aborts: [] as string[],
    resumes: [] as string[],
    dryRuns: [] as { spec: RolloutSpec; plan: Plan }[],
    creates: [] as { context: string; request: NodeRolloutRequest }[],
  };
  const running = (kind: 'run' | 'resume' | 'abort', context: string, name: string) =>
    updateSlice(store, 'rollouts', (s) => actionChanged(s, actionKey(context, name), { kind, state: 'running' }));
  const actions: RolloutActions = {
    show: () => void calls.shown++,
    listNodes: async () => NODES,
    dryRun: async (s, plan) => {
      calls.dryRuns.push({ spec: s, plan });
      const nodes = plan.nodes.map((n) => n.name);
      if (opts.dryRun) return opts.dryRun(nodes, s);
      return {
        drain: {
          evictionVersion: 'policy/v1',
          nodes: nodes.map((n) => ({ node: n, pods: [pod(`${n}-web`, 'evict'), pod(`${n}-ds`, 'ignored-daemonset')] })),
          room: { fits: true, detail: 'fits' },
        },
        room: [{ priority: 10, nodes, fits: true, detail: 'fits on 2 schedulable Ready nodes: CPU 800m of 3 free' }],
      };
    },
    // Runs until the test is over, as a real rollout would.
    run: (s, inCluster) => {
      calls.runs.push(s);
      calls.inCluster.push(inCluster);
      running('run', s.context, s.name);
    },
    inClusterDefault: (context) => opts.inClusterIn?.includes(context) ?? false,
    resume: (context, name) => {
      calls.resumes.push(`${context}/${name}`);
      running('resume', context, name);
    },
    abort: (context, name) => {
      calls.aborts.push(`${context}/${name}`);
      running('abort', context, name);
    },
    createNodeRollout: async (context, request) => {
      calls.creates.push({ context, request });
      return { name: 'rollout-abcde', phase: 'New', targets: [], priorities: [], replacementsCreated: 0, replacementsCompleted: 0 };
    },
  };
  const push = (context: string, state: RolloutState) => updateSlice(store, 'rollouts', (s) => rolloutChanged(s, context, state));
  const pushNavarchos = (context: string, state: NavarchosState) => updateSlice(store, 'rollouts', (s) => navarchosSeen(s, context, state));
  const pushLease = (context: string, l: LeaseSummary) => updateSlice(store, 'rollouts', (s) => leaseChanged(s, context, l));
  return { store, actions, calls, push, pushNavarchos, pushLease };
}

type Fake = ReturnType<typeof fakeRollouts>;

async function openRollouts(
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

describe('the Rollouts tab', () => {
  it('lists the rollouts of every context live: fleetdeck and Navarchos, with phase, nodes done, start and ETA', async () => {
    // Given contexts where Navarchos runs in kind-hosting
    const fake = fakeRollouts({ navarchos: { 'kind-hosting': navarchosWithRollout() } });
    const screen = await openRollouts(fake);
    await screen.waitFor('Navarchos in kind-hosting');

    // When rollouts appear in two contexts
    fake.push('kind-workload-1', runningRollout());
    fake.push('kind-hosting', completedRollout('rollout-old', 'kind-hosting'));

    // Then one row each, with the context, name, who drives it, phase, progress and ETA
    const frame = await screen.waitFor('rollout-20261122-0530');
    expectFits(frame);
    expect(frame).toMatch(/CONTEXT\s+NAME\s+PHASE\s+NODES\s+STARTED\s+ETA/);
    expect(frame).toMatch(/kind-workload-1\s+rollout-20261122-0530\s+Running\s+2\/6\s+\d\d:\d\d:\d\d\s+\dm\d\ds/);
    expect(frame).toMatch(/kind-hosting\s+rollout-x7k2p\s+InProgress\s+1\/3\s+\d\d:\d\d:\d\d\s+\d+m\d\ds/);
    expect(frame).toMatch(/kind-hosting\s+rollout-old\s+Completed\s+1\/1/);
    expect(frame).toContain('n new rollout');

    // When the rollout moves on, the row follows
    const next = runningRollout();
    next.nodes[2] = { ...next.nodes[2]!, phase: 'done', completedAt: iso(0) };
    fake.push('kind-workload-1', next);
    await screen.waitFor(/Running\s+3\/6/);
  });

  it('on a wider terminal also says who drives each rollout', async () => {
    const fake = fakeRollouts({ navarchos: { 'kind-hosting': navarchosWithRollout() } });
    const screen = await openRollouts(fake, {}, vi.fn(), { columns: 120 });
    fake.push('kind-workload-1', runningRollout());
    fake.pushLease('kind-workload-1', lease('rollout-20261122-0530', RUNNER, 3_000));
    const frame = await screen.waitFor(`${RUNNER} live`);
    expect(frame).toMatch(/CONTEXT\s+NAME\s+BY\s+PHASE\s+NODES\s+STARTED\s+ETA\s+OWNER/);
    expect(frame).toMatch(/kind-workload-1\s+rollout-20261122-0530\s+fleetdeck\s+Running.*\spod\/fleetdeck-runner-x-abcde live\s*│?$/m);
    expect(frame).toMatch(/kind-hosting\s+rollout-x7k2p\s+navarchos\s+InProgress/);
  });

  it('calls a holder whose process on this host is gone dead, and an unrenewed Lease expired, in the list and the progress view', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake, {}, vi.fn(), { columns: 140 });
    const orphan = runningRollout();
    // A pid no process has (above the kernel's pid_max), Lease fresh: a runner killed a moment ago.
    const holder = `${os.hostname()}/${2 ** 30}`;
    orphan.owner = { holder, host: os.hostname(), pid: 2 ** 30 };
    fake.push('kind-workload-1', orphan);
    fake.pushLease('kind-workload-1', lease('rollout-20261122-0530', holder, 2_000));
    const frame = await screen.waitFor(`dead (pid ${2 ** 30} gone)`);
    expect(frame).not.toMatch(/\slive\s/);
    await screen.press(KEYS.enter);
    await screen.waitFor(`its holder ${holder} is dead (pid ${2 ** 30} gone): r resumes it here`);
    fake.pushLease('kind-workload-1', lease('rollout-20261122-0530', RUNNER, 95_000));
    await screen.waitFor(/its holder pod\/fleetdeck-runner-x-abcde is expired \(not renewed for 1m\d*s?\): r resumes it here/);
  }, 15_000);

  it('Enter shows the progress: a row per node with the blocking PDB, a progress bar with the ETA, and the log', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    fake.push('kind-workload-1', runningRollout());
    fake.pushLease('kind-workload-1', lease('rollout-20261122-0530', RUNNER, 3_000));
    await screen.waitFor('rollout-20261122-0530');

    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('Log · last');
    expectFits(frame);
    expect(frame).toContain('rollout-20261122-0530 · kind-workload-1 · Running');
    expect(frame).toMatch(/run by pod\/fleetdeck-runner-x-abcde \(lease renewed \ds ago\)/);
    expect(frame).toMatch(/PRI\s+NODE\s+PHASE\s+EVICT\s+IGN\s+FAIL\s+ELAPSED\s+DONE AT/);
    expect(frame).toMatch(/20\s+w1-a\s+done \(replaced by w1-new-1\)\s+3\s+2\s+0\s+2m00s\s+\d\d:\d\d:\d\d/);
    expect(frame).toMatch(/10\s+w1-c\s+draining 3\/7 pods\s+1\s+2\s+0\s+1m0\ds/);
    expect(frame).toContain('blocked by PodDisruptionBudget default/web: 0 disruptions allowed');
    expect(frame).toMatch(/10\s+w1-d\s+waiting/);
    // The bar: 2 of 6 done, and the ETA from the finished nodes (2 min each: 1 min left on w1-c, 3 more nodes)
    expect(frame).toMatch(/█+░+\s+33% 2\/6 nodes done · ETA 7m00s|█+░+\s+33% 2\/6 nodes done · ETA 6m5\ds/);
    expect(frame).toContain('w1-c: eviction blocked by PodDisruptionBudget default/web');
    expect(frame).toContain('esc back');

    // When the budget allows the eviction and the drain moves on, the row says so
    const next = runningRollout();
    next.nodes[2] = { ...next.nodes[2]!, evicted: 5 };
    delete next.nodes[2]!.blockingPdb;
    fake.push('kind-workload-1', next);
    const after = await screen.waitFor('draining 7/7 pods');
    expect(after).not.toContain('blocked by PodDisruptionBudget default/web: 0');

    // Esc goes back to the list
    await screen.press(KEYS.esc);
    await screen.waitFor('Rollouts in 3 contexts');
  });

  it('scrolls the node rows with j/k when there are more than fit', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    const big = runningRollout('rollout-big');
    big.nodes = Array.from({ length: 30 }, (_, i) => node(`node-${String(i).padStart(2, '0')}`, 30 - i));
    fake.push('kind-workload-1', big);
    await screen.waitFor('rollout-big');
    await screen.press(KEYS.enter);

    const first = await screen.waitFor(/nodes 1–\d+ of 30 · j\/k scroll/);
    expectFits(first);
    expect(first).toContain('node-00');
    expect(first).not.toContain('node-29');

    await screen.press(...Array<string>(29).fill('j'));
    const last = await screen.waitFor('node-29');
    expectFits(last);
    expect(last).not.toContain('node-00');
    expect(last).toMatch(/nodes \d+–30 of 30/);

    await screen.press('g');
    await screen.waitFor('node-00');
  });
});

describe('the new-rollout wizard', () => {
  it('n walks the pages (selector with its live matches, nodes by name, priorities, options), shows the plan and dry run, and Enter runs it', async () => {
    const fake = fakeRollouts();
    const onQuit = vi.fn();
    const screen = await openRollouts(fake, {}, onQuit);

    // When n is pressed and kind-workload-1 chosen
    await screen.press('n');
    await screen.waitFor('New rollout · 1/6 Context');
    await screen.press(KEYS.down, KEYS.enter);
    await screen.waitFor('New rollout · 2/6 Nodes by label selector · kind-workload-1');

    // Then a typed selector shows what it matches, live; q is text here, not quit
    await screen.press(...'role=q');
    await screen.waitFor('matches 0 of 6 nodes');
    expect(onQuit).not.toHaveBeenCalled();
    await screen.press(KEYS.backspace, ...'worker');
    const typed = await screen.waitFor('matches 4 of 6 nodes: w1-a, w1-b, w1-c, w1-d');
    expectFits(typed);

    // When it is added with priority 20
    await screen.press(KEYS.enter);
    await screen.waitFor('Priority of the selector');
    await screen.press(KEYS.backspace, KEYS.backspace, '2', '0', KEYS.enter);
    await screen.waitFor('role=worker  priority 20');

    // And w1-e is picked by name with priority 30
    await screen.press(KEYS.enter);
    const nodes = await screen.waitFor('Nodes by name');
    expect(nodes).toMatch(/w1-a\s+zone-a · selected by a selector, priority 20/);
    await screen.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down, ' ', KEYS.enter);
    await screen.waitFor('Priority of each node picked by name');
    await screen.press(KEYS.backspace, KEYS.backspace, '3', '0');
    await screen.waitFor(/w1-e\s+priority 30/);
    await screen.press(KEYS.enter);

    // And the options: delete-node, 2 at a time, --force
    await screen.waitFor('How each node is replaced');
    await screen.press(RIGHT, KEYS.down, '2', KEYS.down, ' ');
    const options = await screen.waitFor(/--force\s+◉/);
    expect(options).toMatch(/Replacement\s+‹ delete-node ›/);
    expect(options).toMatch(/Max unavailable\s+‹ 2 ›/);
    await screen.press(KEYS.enter);

    // Then the plan lists the nodes in order with their dry run, and the room check
    const plan = await screen.waitFor('Press enter to start');
    expectFits(plan);
    expect(plan).toMatch(/rollout-\d{8}-\d{4} · 5 nodes in this order/);
    expect(plan).toContain('replace: delete-node · 2 at a time · --force');
    const order = [
      'w1-e  priority 30  2 pods: 1 evict, 1 DaemonSet · by name',
      'w1-a  priority 20  2 pods: 1 evict, 1 DaemonSet · by role=worker',
      'w1-b  priority 20',
      'w1-c  priority 20',
      'w1-d  priority 20',
    ].map((s) => plan.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(plan).toContain('2 pods: 1 evict, 1 DaemonSet');
    expect(plan).toContain('Room on the other nodes');
    expect(fake.calls.dryRuns[0]!.plan.nodes.map((n) => n.name)).toEqual(['w1-e', 'w1-a', 'w1-b', 'w1-c', 'w1-d']);
    expect(fake.calls.dryRuns[0]!.spec).toMatchObject({
      context: 'kind-workload-1',
      replace: 'delete-node',
      maxUnavailable: 2,
      drain: { force: true, deleteEmptyDirData: false },
    });
    expect(fake.calls.runs).toHaveLength(0);

    // When Enter confirms
    await screen.press(KEYS.enter);

    // Then the rollout runs with what was chosen, and its progress view opens
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    const run = fake.calls.runs[0]!;
    expect(run).toMatchObject({
      context: 'kind-workload-1',
      nodeSelectors: [{ selector: 'role=worker', priority: 20 }],
      nodeNames: [{ name: 'w1-e', priority: 30 }],
      replace: 'delete-node',
      maxUnavailable: 2,
      drain: { force: true, deleteEmptyDirData: false },
    });
    expect(run.name).toMatch(/^rollout-\d{8}-\d{4}$/);
    await screen.waitFor(`${run.name} · kind-workload-1`);
    await screen.waitFor('waiting for its state (ConfigMap fleetdeck-rollout-');

    // When the runner writes its state, the view shows it
    const state = runningRollout(run.name);
    state.owner = { holder: 'here/1', host: 'here', pid: 1 };
    fake.push('kind-workload-1', state);
    fake.pushLease('kind-workload-1', lease(run.name, 'here/1', 0));
    const progress = await screen.waitFor('run by this fleetdeck');
    expect(progress).toContain('w1-c');
    expect(onQuit).not.toHaveBeenCalled();
  });

  it('refuses to start when the dry run finds pods that need a flag, and Esc goes back to turn it on', async () => {
    const fake = fakeRollouts({
      dryRun: (nodes, s) => ({
        drain: {
          evictionVersion: 'policy/v1',
          nodes: nodes.map((n) =>
            s.drain.force
              ? { node: n, pods: [pod('bare', 'evict')] }
              : {
                  node: n,
                  pods: [pod('bare', 'needs-force', { reason: 'declares no controller' })],
                  refused: `cannot drain node ${n}: needs --force`,
                },
          ),
          room: { fits: false, detail: '' },
        },
        room: [{ priority: 10, nodes, fits: false, detail: 'does not fit on 0 schedulable Ready nodes' }],
      }),
    });
    const screen = await openRollouts(fake);
    await screen.press('n');
    await screen.waitFor('Context');
    await screen.press(KEYS.down, KEYS.enter);
    await screen.waitFor('Nodes by label selector');
    await screen.press(KEYS.enter);
    await screen.waitFor('Nodes by name');
    await screen.press(' ', KEYS.enter);
    await screen.waitFor('Priority of each node');
    await screen.press(KEYS.enter);
    await screen.waitFor('How each node is replaced');
    await screen.press(KEYS.enter);

    const refused = await screen.waitFor('Refused: pods on w1-a need a flag');
    expect(refused).toContain('needs --force: declares no controller');
    expect(refused).toContain('does not fit on 0 schedulable Ready nodes');
    // Enter starts nothing: once Esc, pressed after it, is seen going back, Enter was handled.
    await screen.press(KEYS.enter, KEYS.esc);
    await screen.waitFor('How each node is replaced');
    expect(fake.calls.runs).toHaveLength(0);
    await screen.press(KEYS.down, KEYS.down, ' ', KEYS.enter);
    await screen.waitFor('Press enter to start');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    expect(fake.calls.runs[0]).toMatchObject({ nodeNames: [{ name: 'w1-a', priority: 10 }], nodeSelectors: [], drain: { force: true } });
  });

  it('the plan page says where the rollout runs, the fleet file’s default first; i switches to the cluster and Enter starts it there', async () => {
    // Given a fleet file that runs kind-workload-1's rollouts in the cluster, and none of kind-hosting's
    const fake = fakeRollouts({ inClusterIn: ['kind-workload-1'] });
    const screen = await openRollouts(fake);
    const toPlan = async (down: number) => {
      await screen.press('n');
      await screen.waitFor('1/6 Context');
      await screen.press(...Array<string>(down).fill(KEYS.down), KEYS.enter);
      await screen.waitFor('Nodes by label selector');
      await screen.press(KEYS.enter);
      await screen.waitFor('Nodes by name');
      await screen.press(' ', KEYS.enter);
      await screen.waitFor('Priority of each node');
      await screen.press(KEYS.enter);
      await screen.waitFor('How each node is replaced');
      await screen.press(KEYS.enter);
    };
    // When a rollout of kind-hosting is planned, it runs here unless i is pressed
    await toPlan(0);
    const here = await screen.waitFor('Press enter to start: it cordons');
    expectFits(here);
    expect(here).toContain('runs here: quitting fleetdeck pauses it (i: run it in the cluster)');
    expect(here).toContain('enter start · i run in the cluster · j/k scroll');
    await screen.press('i');
    const there = await screen.waitFor('Press enter to start a Job');
    expectFits(there);
    expect(there).toContain('runs in the cluster, as a Job: fleetdeck may quit (i: run it here)');
    await screen.press('i');
    await screen.waitFor('runs here: quitting');
    await screen.press('i', KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    expect(fake.calls.runs[0]!.context).toBe('kind-hosting');
    expect(fake.calls.inCluster[0]).toBe(true);

    // And one of kind-workload-1 runs in the cluster by default
    await screen.press(KEYS.esc);
    await screen.waitFor('Rollouts in 3 contexts');
    await toPlan(1);
    await screen.waitFor('Press enter to start a Job');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(2));
    expect(fake.calls.runs[1]!.context).toBe('kind-workload-1');
    expect(fake.calls.inCluster[1]).toBe(true);
  });

  it('in read-only mode shows the plan and the dry run and refuses to run', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake, { readOnly: true });
    await screen.waitFor('read-only: plans and dry runs only');
    await screen.press('n');
    await screen.waitFor('Context');
    await screen.press(KEYS.down, KEYS.enter);
    await screen.waitFor('Nodes by label selector');
    await screen.press(...'role=infra', KEYS.enter);
    await screen.waitFor('Priority of the selector');
    await screen.press(KEYS.enter);
    await screen.waitFor('role=infra  priority 10');
    await screen.press(KEYS.enter);
    await screen.waitFor('Nodes by name');
    await screen.press(KEYS.enter);
    await screen.waitFor('How each node is replaced');
    await screen.press(KEYS.enter);

    await screen.waitFor('Read-only mode: nothing is started (run fleetdeck without --read-only).');
    const plan = await screen.waitFor('Room on the other nodes');
    expect(plan).toContain('w1-e  priority 10  2 pods: 1 evict, 1 DaemonSet · by role=infra');

    // Enter starts nothing: once Esc, pressed after it, is seen going back, Enter was handled;
    // the plan's last frame before that still said read-only.
    const before = screen.frames.length;
    await screen.press(KEYS.enter, KEYS.esc);
    await screen.waitFor('How each node is replaced');
    expect(fake.calls.runs).toHaveLength(0);
    const afterEnter = screen.frames.slice(
      0,
      before + screen.frames.slice(before).findIndex((f) => f.includes('How each node is replaced')),
    );
    expect(afterEnter.at(-1)).toContain('Read-only mode');
    expect(afterEnter.at(-1)).toContain('Room on the other nodes');

    // Ctrl-C leaves the wizard, not fleetdeck
    await screen.press(KEYS.enter);
    await screen.waitFor('Room on the other nodes');
    await screen.press(KEYS.ctrlC);
    await screen.waitFor('Rollouts in 3 contexts');
  });

  it('on a context with Navarchos, confirming creates a NodeRollout and shows its NodeReplacements', async () => {
    const fake = fakeRollouts({ navarchos: { 'kind-hosting': { installed: true, synced: true, rollouts: [], replacements: [] } } });
    const screen = await openRollouts(fake);
    await screen.waitFor('Navarchos in kind-hosting');
    await screen.press('n');
    const contexts = await screen.waitFor('kind-hosting  (Navarchos: creates a NodeRollout)');
    expect(contexts).toContain('New rollout · 1/6');
    await screen.press(KEYS.enter);
    await screen.waitFor('New rollout · 2/5 Nodes by label selector · kind-hosting');
    await screen.press(...'role=worker', KEYS.enter);
    await screen.waitFor('Priority of the selector');
    await screen.press(KEYS.backspace, KEYS.backspace, '2', '0', KEYS.enter);
    await screen.waitFor('role=worker  priority 20');
    await screen.press(KEYS.enter);
    await screen.waitFor('Nodes by name');
    await screen.press(KEYS.enter);

    // No options page: the controller drains its own way
    const plan = await screen.waitFor('Press enter to create the NodeRollout');
    expect(plan).toContain('New rollout · 5/5 The plan and the dry run');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.creates).toHaveLength(1));
    expect(fake.calls.creates[0]).toEqual({
      context: 'kind-hosting',
      request: { nodeSelectors: [{ selector: 'role=worker', priority: 20 }], nodeNames: [] },
    });
    expect(fake.calls.runs).toHaveLength(0);
    await screen.waitFor('NodeRollout rollout-abcde · kind-hosting');

    // When the controller works on it, its NodeReplacements show live
    const n = navarchosWithRollout();
    n.rollouts[0] = { ...n.rollouts[0]!, name: 'rollout-abcde' };
    n.replacements = n.replacements.map((r) => ({ ...r, rollout: 'rollout-abcde' }));
    fake.pushNavarchos('kind-hosting', n);
    const frame = await screen.waitFor('NodeRollout rollout-abcde · kind-hosting · InProgress');
    expect(frame).toContain('driven by the Navarchos controller · targets: kubernetes.io/role=master (20)');
    expectFits(frame);
    expect(frame).toMatch(/PRI\s+NODE\s+PHASE\s+PODS\s+EVICT\s+IGN\s+FAIL/);
    expect(frame).toMatch(/20\s+h-1\s+Completed\s+8\s+6\s+2\s+0\s+\S+\s+\d\d:\d\d:\d\d/);
    expect(frame).toMatch(/10\s+h-2\s+InProgress\s+7\s+3\s+2\s+1/);
    expect(frame).toContain("failed: web-1: Cannot evict pod as it would violate the pod's");
    expect(frame).toMatch(/1\/3 replacements completed · ETA \d+m\d\ds/);

    // a and r do not apply
    await screen.press('a');
    await screen.waitFor('fleetdeck does not abort it');
  });
});

describe('actions in the progress view', () => {
  it('a asks y/n before aborting; n keeps it running, y aborts; q is not quit meanwhile', async () => {
    const fake = fakeRollouts();
    const onQuit = vi.fn();
    const screen = await openRollouts(fake, {}, onQuit);
    fake.push('kind-workload-1', runningRollout());
    await screen.waitFor('rollout-20261122-0530');
    await screen.press(KEYS.enter);
    await screen.waitFor('Log · last');

    await screen.press('a');
    const ask = await screen.waitFor('Abort rollout-20261122-0530 in kind-workload-1? y/n');
    expectFits(ask);
    expect(ask).toContain('It stops the rollout and uncordons the 1 node it cordoned and did not finish.');
    expect(ask).toContain('y abort it');
    await screen.press('q', '3', 'n');
    await screen.waitFor('not aborted');
    expect(onQuit).not.toHaveBeenCalled();
    expect(fake.calls.aborts).toEqual([]);

    await screen.press('a');
    await screen.waitFor('y/n');
    await screen.press('y');
    await vi.waitFor(() => expect(fake.calls.aborts).toEqual(['kind-workload-1/rollout-20261122-0530']));
    await screen.waitFor('abort requested');
  });

  it('r resumes a Paused rollout; read-only refuses both a and r', async () => {
    const paused = {
      ...runningRollout('rollout-paused'),
      phase: 'Paused' as const,
      message: 'health gate failed within 10m00s: 1 pod Pending (default/web-2)',
    };
    delete paused.owner;

    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    fake.push('kind-workload-1', paused);
    await screen.waitFor('rollout-paused');
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('nobody runs it: r resumes it here');
    expect(frame).toContain('health gate failed within 10m00s: 1 pod Pending (default/web-2)');
    await screen.press('r');
    await vi.waitFor(() => expect(fake.calls.resumes).toEqual(['kind-workload-1/rollout-paused']));
    cleanup();

    const ro = fakeRollouts();
    const readOnly = await openRollouts(ro, { readOnly: true });
    ro.push('kind-workload-1', paused);
    await readOnly.waitFor('rollout-paused');
    await readOnly.press(KEYS.enter);
    await readOnly.waitFor('nobody runs it');
    await readOnly.press('r');
    await readOnly.waitFor('read-only: resuming is refused (start fleetdeck without --read-only)');
    await readOnly.press('a');
    await readOnly.waitFor('read-only: aborting is refused (start fleetdeck without --read-only)');
    expect(ro.calls.resumes).toEqual([]);
    expect(ro.calls.aborts).toEqual([]);
  });

  it('draws the progress view with ASCII characters only', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake, { ascii: true });
    fake.push('kind-workload-1', runningRollout());
    await screen.waitFor('rollout-20261122-0530');
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor(/#+-+\s+33%/);
    expect([...frame].filter((c) => c.charCodeAt(0) > 0x7e)).toEqual([]);
  });
});

describe('pure parts', () => {
  it('node rows stop the clock (and stop claiming a blocking budget) when the rollout is not running', () => {
    const s = { ...runningRollout(), phase: 'Paused' as const, updatedAt: iso(30_000) };
    const rows = nodeRows(s, Date.now());
    expect(rows[2]!.elapsed).toBe('30s');
    expect(rows[2]!.phase).toBe('stopped: draining 3/7 pods');
    // The budget was what blocked it when it stopped, not now.
    expect(rows[2]!.note).toBeUndefined();
    expect(rows[3]!.evicted).toBe('');
  });

  it('the Navarchos ETA is the mean time per finished replacement times those left', () => {
    const n = navarchosWithRollout();
    const now = Date.now();
    // One done 10 min after creation; two left; 10 min since the last completion.
    expect(Math.round(navarchosEtaMs(n.rollouts[0]!, n.replacements, now)! / MIN)).toBe(10);
  });
});

describe('the rollout in a terminal (rollout create, resume, watch NAME)', () => {
  it('prints each log line once above a live table, even as the state keeps only its last lines', async () => {
    const { render } = await import('ink-testing-library');
    const { RolloutLive } = await import('../../../src/screens/rollouts/rollout-live.js');
    const { UiProvider } = await import('../../../src/components/theme/index.js');
    const first = runningRollout();
    const tree = (state: RolloutState) => (
      <UiProvider value={{ ascii: false, color: false }}>
        <RolloutLive state={state} waiting="…" />
      </UiProvider>
    );
    const r = render(tree(first));
    await waitForFrame(r.lastFrame, 'w1-c: eviction blocked by PodDisruptionBudget');
    // The next state dropped the oldest line and added one.
    const next: RolloutState = { ...first, log: [...first.log.slice(1), { time: iso(0), message: 'w1-c: eviction done' }] };
    r.rerender(tree(next));
    const frame = await waitForFrame(r.lastFrame, 'w1-c: eviction done');
    // Every line once, in order, though the second state no longer had the first one.
    const messages = [first.log[0]!, ...next.log].map((l) => l.message);
    for (const m of messages) expect(frame.split(m).length - 1, m).toBe(1);
    const at = messages.map((m) => frame.indexOf(m));
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    // Under the log: the progress and the node table.
    expect(frame.indexOf('2/6 nodes done')).toBeGreaterThan(at.at(-1)!);
    expect(frame).toMatch(/w1-c\s+draining/);
    r.unmount();
  });
});

describe('l in the progress view', () => {
  it('opens the log of the pod a budget blocks on the selected node, and says so when none does', async () => {
    const fake = fakeRollouts();
    const opened: LogTarget[] = [];
    const screen = await renderApp(
      appProps(fake.store, {
        actions: { rollouts: fake.actions, logs: { openLogs: (t: LogTarget) => opened.push(t) } as unknown as LogActions },
        ui: { readOnly: false, ascii: false, color: false },
      }),
    );
    await screen.press('3');
    const blocked = runningRollout();
    blocked.nodes[2] = {
      ...blocked.nodes[2]!,
      blockingPdb: { namespace: 'default', name: 'web', disruptionsAllowed: 0, pod: 'default/web-5d4-x2' },
    };
    fake.push('kind-workload-1', blocked);
    await screen.waitFor('rollout-20261122-0530');
    await screen.press(KEYS.enter);
    await screen.waitFor('Log · last');

    // Given the first node (done, nothing blocks it) selected, when l is pressed
    await screen.press('l');
    // Then it says no pod blocks it
    await screen.waitFor('no pod blocks the drain of w1-a');
    expect(opened).toEqual([]);

    // When the blocked node is selected and l pressed
    await screen.press('j');
    await screen.press('j');
    await screen.press('l');
    // Then the blocked pod's log is asked for, in its namespace and context
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatchObject({ context: 'kind-workload-1', namespace: 'default', pods: ['web-5d4-x2'] });
    expect(opened[0]?.title).toContain('PodDisruptionBudget web');
  });
});

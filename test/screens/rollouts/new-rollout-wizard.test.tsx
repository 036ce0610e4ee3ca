import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../helpers/screens/screen.js';
import {
  expectFits,
  fakeRollouts,
  lease,
  navarchosWithRollout,
  openRollouts,
  pod,
  RIGHT,
  runningRollout,
  clockAtMidday,
} from './fixtures.js';

clockAtMidday();

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

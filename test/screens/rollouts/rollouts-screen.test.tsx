import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import type { RolloutState } from '../../../src/rollout/types.js';
import { navarchosEtaMs, nodeRows } from '../../../src/screens/rollouts/rows.js';
import { KEYS, waitForFrame } from '../../helpers/screens/screen.js';
import {
  completedRollout,
  expectFits,
  fakeRollouts,
  iso,
  lease,
  MIN,
  navarchosWithRollout,
  node,
  openRollouts,
  RUNNER,
  runningRollout,
  clockAtMidday,
} from './fixtures.js';

clockAtMidday();

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

import { cleanup } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { LogActions } from '../../../src/store/actions.js';
import type { LogTarget } from '../../../src/store/log-target.js';
import { appProps, KEYS, oneLine, renderApp } from '../../helpers/screens/screen.js';
import { expectFits, fakeRollouts, openRollouts, runningRollout, clockAtMidday } from './fixtures.js';

clockAtMidday();

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
    // The write gate's own line, as `fleetdeck rollout resume --read-only` says it.
    await readOnly.waitFor(oneLine('rollout resume cordons, drains and replaces nodes and is refused with --read-only'));
    await readOnly.press('a');
    await readOnly.waitFor(oneLine('rollout abort uncordons nodes and is refused with --read-only'));
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

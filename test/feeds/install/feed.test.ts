/**
 * The install feed over fakes of its workflows: what the wizard needs into the slice when it
 * opens, the checks and the steps live into it, a superseded check's answer dropped, the install
 * refused by the write gate under --read-only (nothing runs), closing or stopping stops the steps.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import type { ChecksOutcome } from '../../../src/feeds/install/feed.js';
import { initialWizardState } from '../../../src/screens/install/use-wizard-state.js';
import { type InstallChoices, planOf } from '../../../src/store/install.js';
import { fakeInstallWork, installFeedOver, ok } from '../../helpers/screens/install.js';

const choices = (over: Partial<InstallChoices> = {}): InstallChoices => ({ ...initialWizardState().choices, hosting: 'kind-cp', ...over });
const BUNDLE = { name: 'b', source: 'built-in', reference: true, images: [], overlays: ['overlays/cp-ha'], notSandbox: ['kind-cp'] };

/** A feed opened over `work`, once the wizard has what it needs. */
async function opened(over?: Parameters<typeof fakeInstallWork>[0], readOnly = false) {
  const fake = fakeInstallWork(over);
  const { store, feed } = installFeedOver(fake.work, { initial: { namespace: 'from-flags' } }, undefined, readOnly);
  feed.open();
  expect(store.getState().install.wizard).toBe('loading');
  await vi.waitFor(() => expect(store.getState().install.wizard).toBe('open'));
  return { ...fake, store, feed, slice: () => store.getState().install };
}

describe('the install feed', () => {
  it('opens with the contexts, the first answers from the flags and the kubeconfig files', async () => {
    const { slice } = await opened();
    expect(slice().setup).toEqual({
      contexts: ['kind-cp', 'kind-workload-1', 'kind-workload-2'],
      initial: { namespace: 'from-flags' },
      kubeconfigPath: '/home/me/.config/fleetdeck/nova.kubeconfig',
      userKubeconfig: '/home/me/.kube/config',
    });
  });

  it('runs the checks of the choices live into the slice, with the plan’s bundle for their clusters', async () => {
    const { feed, slice, calls } = await opened({ plan: () => BUNDLE });
    feed.check(choices());
    expect(slice().checks).toEqual({ items: [], done: false, blocking: false, warnings: false });
    expect(planOf(slice(), choices())).toEqual(BUNDLE);
    await vi.waitFor(() => expect(slice().checks?.done).toBe(true));
    expect(slice().checks).toMatchObject({ blocking: false, warnings: true, items: [{ id: 'reach' }, { id: 'ver', state: 'warn' }] });
    expect(calls.checks).toEqual([choices()]);
  });

  it('drops the answer of checks superseded by later ones', async () => {
    const answers: ((o: ChecksOutcome) => void)[] = [];
    const { feed, slice } = await opened({ checks: () => new Promise((resolve) => answers.push(resolve)) });
    feed.check(choices({ ha: true }));
    feed.check(choices({ ha: false }));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    const second: CheckItem[] = [ok('second', 'Second run')];
    answers[1]!({ items: second, blocking: false, warnings: false });
    await vi.waitFor(() => expect(slice().checks?.done).toBe(true));
    answers[0]!({ items: [ok('first', 'First run')], blocking: true, warnings: false });
    // Every answer queued has arrived by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(slice().checks).toEqual({ items: second, done: true, blocking: false, warnings: false });
  });

  it('says checks that could not run as a failed row that blocks', async () => {
    const { feed, slice } = await opened({ checks: () => Promise.reject(new Error('hosting unreachable')) });
    feed.check(choices());
    await vi.waitFor(() => expect(slice().checks?.done).toBe(true));
    expect(slice().checks).toMatchObject({ blocking: true, items: [{ state: 'fail', detail: 'hosting unreachable' }] });
  });

  it('runs the install live into the slice; closing stops steps under way and drops their answer', async () => {
    const { feed, slice, calls } = await opened();
    feed.install(choices());
    await vi.waitFor(() => expect(slice().steps?.done).toBe(true));
    expect(slice().steps).toMatchObject({ ok: true, items: [{ id: 'namespace' }, { id: 'fleet' }] });
    expect(calls.installs).toEqual([choices()]);

    let signal: AbortSignal | undefined;
    let finish: () => void = () => {};
    const hanging = await opened({
      install: (_c, onProgress, s) => {
        signal = s;
        onProgress([{ id: 'namespace', label: 'Namespace', state: 'running' }]);
        return new Promise((resolve) => {
          finish = () => resolve({ ok: false, steps: [] });
        });
      },
    });
    hanging.feed.install(choices());
    await vi.waitFor(() => expect(hanging.slice().steps?.items).toHaveLength(1));
    hanging.feed.close(130);
    expect(signal?.aborted).toBe(true);
    finish();
    // Every answer queued has arrived by the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(hanging.slice()).toMatchObject({ wizard: 'closed', plans: {} });
    expect(hanging.slice().steps).toBeUndefined();
  });

  it('stopping (the dashboard quits) stops the steps under way and resolves once they stopped', async () => {
    let finish: () => void = () => {};
    const hanging = await opened({
      install: (_c, _onProgress, signal) =>
        new Promise((resolve) => {
          finish = () => resolve({ ok: false, steps: [] });
          signal.addEventListener('abort', () => setImmediate(finish));
        }),
    });
    hanging.feed.install(choices());
    await vi.waitFor(() => expect(hanging.slice().steps).toBeDefined());
    let stopped = false;
    const stopping = Promise.resolve(hanging.feed.stop()).then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    await stopping;
    expect(hanging.slice().steps?.done).toBe(true);
  });

  it('under --read-only refuses the install with the write gate’s line and runs nothing', async () => {
    const { feed, slice, calls } = await opened(undefined, true);
    feed.install(choices());
    expect(calls.installs).toHaveLength(0);
    expect(slice().steps).toEqual({
      items: [{ id: 'refused', label: 'Install', state: 'fail', detail: 'install changes clusters and is refused with --read-only' }],
      done: true,
      ok: false,
    });
  });

  it('says why the wizard could not load', async () => {
    const { work } = fakeInstallWork({
      setup: () => {
        throw new Error('no bundle at /nowhere');
      },
    });
    const { store, feed } = installFeedOver(work);
    feed.open();
    await vi.waitFor(() => expect(store.getState().install.wizard).toEqual({ error: 'no bundle at /nowhere' }));
  });
});

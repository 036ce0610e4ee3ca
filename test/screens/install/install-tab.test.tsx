/**
 * The install wizard in the dashboard's Install tab, its checks and steps run by the install
 * feed (through the feeds holder) over fakes of its workflows: it owns the keyboard until it is
 * done, ctrl-c stops the steps under way, and an install done here makes the dashboard watch the
 * fleet it recorded.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFeed } from '../../../src/feeds/install/feed.js';
import { createFeeds } from '../../../src/feeds/feeds.js';
import type { Session } from '../../../src/session/session.js';
import { fakeInstallWork, gatedSession } from '../../helpers/screens/install.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, type Screen } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

/** The dashboard whose Install tab offers the wizard over `work`; `reopen` is the session after an install. */
function dashboard(work: ReturnType<typeof fakeInstallWork>['work'], onQuit = vi.fn()) {
  const store = threeContexts();
  const installed = { kubeconfig: 'installed' } as unknown as Session;
  const reopen = vi.fn(() => installed);
  const feeds = createFeeds(store, gatedSession(false), [installFeed({ work: () => work, reopen })]);
  return { store, reopen, installed, feeds, props: appProps(store, { onQuit, actions: feeds.actions }) };
}

/** The Install tab, Enter: the wizard's first page answered, its second shown. */
async function toTheNamespace(screen: Screen): Promise<void> {
  await screen.press('2');
  await screen.waitFor('Press enter to start the install wizard');
  await screen.press(KEYS.enter);
  await screen.waitFor('Hosting cluster');
  await screen.press(KEYS.enter);
  await screen.waitFor('Namespace of the control plane');
}

/** From the namespace page to the plan: every page kept as it is, the checks' warning accepted. */
async function toThePlan(screen: Screen): Promise<void> {
  await screen.press(KEYS.enter);
  await screen.waitFor('Workload clusters');
  await screen.press(KEYS.enter);
  for (const title of ['High availability', 'Topology key', 'Certificate validity']) {
    await screen.waitFor(title);
    await screen.press(KEYS.enter);
  }
  await screen.waitFor('Warnings above');
  await screen.press(KEYS.enter);
  await screen.waitFor('Press enter to install');
}

describe('the Install tab of the dashboard', () => {
  it('Enter opens the wizard, which owns the keyboard until it is done; a finished install is watched', async () => {
    // Given the dashboard with an installer
    const { work } = fakeInstallWork();
    const onQuit = vi.fn();
    const { store, reopen, props } = dashboard(work, onQuit);
    const screen = await renderApp(props);
    await screen.waitFor('kind-hosting');

    // When the operator goes to Install, presses Enter and picks the hosting cluster
    await toTheNamespace(screen);

    // Then keys are the wizard's: q typed into the namespace is text, not quit; Tab does not switch screens
    await screen.press('q', KEYS.tab);
    expect(await screen.waitFor('elotlq')).toContain('Install · 2/10');
    expect(onQuit).not.toHaveBeenCalled();

    // When the install runs to the end and q is pressed
    await screen.press(KEYS.backspace);
    await toThePlan(screen);
    await screen.press(KEYS.enter);
    await screen.waitFor('Installed');
    await screen.press('q');

    // Then the Install tab is back, the dashboard watches the installed fleet, and it did not quit
    await screen.waitFor('Press enter to start the install wizard');
    expect(reopen).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(store.getState().banner?.text).toBe('installed: the fleet is recorded and watched'));
    expect(onQuit).not.toHaveBeenCalled();
  });

  it('on its first page esc closes the wizard; ctrl-c quits fleetdeck, as its hint says', async () => {
    const { work } = fakeInstallWork();
    const onQuit = vi.fn();
    const screen = await renderApp(dashboard(work, onQuit).props);
    await screen.press('2');
    await screen.waitFor('Press enter to start the install wizard');
    await screen.press(KEYS.enter);
    expect(await screen.waitFor('Hosting cluster')).toMatch(/esc close · ctrl-c quit$/m);
    await screen.press(KEYS.esc);
    await screen.waitFor('Press enter to start the install wizard');
    expect(onQuit).not.toHaveBeenCalled();

    await screen.press(KEYS.enter);
    await screen.waitFor('Hosting cluster');
    await screen.press(KEYS.ctrlC);
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
  });

  it('ctrl-c while installing stops the steps and leaves the wizard; the fleet is not reopened', async () => {
    let signal: AbortSignal | undefined;
    const { work } = fakeInstallWork({
      install: (_c, onProgress, s) => {
        signal = s;
        onProgress([{ id: 'namespace', label: 'Namespace', state: 'running' }]);
        return new Promise(() => {});
      },
    });
    const { reopen, props } = dashboard(work);
    const screen = await renderApp(props);
    await toTheNamespace(screen);
    await toThePlan(screen);
    await screen.press(KEYS.enter);
    expect(await screen.waitFor('Namespace')).toMatch(/ctrl-c stops/);
    await screen.press(KEYS.ctrlC);
    await screen.waitFor('Press enter to start the install wizard');
    expect(signal?.aborted).toBe(true);
    expect(reopen).not.toHaveBeenCalled();
  });

  it('a wizard that cannot load says why on the Install page; Enter tries again', async () => {
    let tries = 0;
    const store = threeContexts();
    const { work } = fakeInstallWork();
    const feeds = createFeeds(store, gatedSession(false), [
      installFeed({
        work: () => {
          tries++;
          if (tries === 1) throw new Error('bundle directory /nowhere does not exist');
          return work;
        },
      }),
    ]);
    const screen = await renderApp(appProps(store, { actions: feeds.actions }));
    await screen.press('2');
    await screen.waitFor('Press enter to start the install wizard');
    await screen.press(KEYS.enter);
    await screen.waitFor('bundle directory /nowhere does not exist');
    await screen.press(KEYS.enter);
    await screen.waitFor('Hosting cluster');
    expect(tries).toBe(2);
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { UiProvider } from '../../../src/components/theme/index.js';
import { PrepareNodesPage, prepareSummary } from '../../../src/screens/install/prepare-nodes.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { startPrepareFeed } from '../../../src/feeds/prepare.js';
import type { Session } from '../../../src/session/session.js';
import type { Actions } from '../../../src/store/actions.js';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, renderScreen } from '../../helpers/screens/screen.js';

/** The dashboard's store and its Prepare nodes actions (the prepare feed) running `preflight` instead of this host's checks. */
function withPreflight(preflight: () => Promise<CheckItem[]>, more: Actions = {}) {
  const store = threeContexts();
  return appProps(store, { actions: { prepare: startPrepareFeed(store, () => ({}) as Session, preflight), ...more } });
}

afterEach(() => cleanup());

const ok = (id: string, label: string, detail = 'fine'): CheckItem => ({ id, label, state: 'ok', detail });

const CHECKS: CheckItem[] = [
  ok('os', 'Operating system supported', 'Ubuntu 24.04 LTS'),
  {
    id: 'dns-port',
    label: 'DNS port 53',
    state: 'warn',
    detail: 'in use by systemd-resolve (pid 512) on udp 127.0.0.53:53',
    hint: 'only on loopback: a node-local resolver is fine',
  },
  { id: 'swap', label: 'Swap off', state: 'fail', detail: 'on: /swap.img', hint: 'swapoff -a and remove it from /etc/fstab' },
  ok('cpus', 'CPUs (at least 2)', '8'),
];

/** A fake preflight: answers once released, counting its calls. */
function fakePreflight(items: CheckItem[] = CHECKS) {
  const calls = { count: 0 };
  let release: () => void = () => {};
  const preflight = () => {
    calls.count += 1;
    return new Promise<CheckItem[]>((resolve) => {
      release = () => resolve(items);
    });
  };
  return { preflight, calls, release: () => release() };
}

describe('Prepare nodes (Install tab)', () => {
  it('runs the checks with p, shows the failing row with its hint and the summary, re-runs with p, Esc goes back', async () => {
    // Given the dashboard with a preflight function
    const fake = fakePreflight();
    const screen = await renderApp(withPreflight(fake.preflight, { install: { open() {}, check() {}, install() {}, close() {} } }));

    // When the operator opens the Install tab, it offers both pages
    await screen.press('2');
    const install = await screen.waitFor('Press p to prepare nodes');
    expect(install).toContain('Press enter to start the install wizard');
    expect(install).toMatch(/p prepare nodes/);
    expect(install).toMatch(/enter install wizard/);

    // When p is pressed, the checks run with a spinner
    await screen.press('p');
    const running = await screen.waitFor('Checking this host');
    expect(running).toContain('Prepare nodes');
    expect(running).toMatch(/esc back/);
    expect(fake.calls.count).toBe(1);

    // Then, answered, the rows, the failing one with its hint, and the summary
    fake.release();
    const done = await screen.waitFor('1 failure');
    expect(done).toMatch(/✗ Swap off\s+on: \/swap\.img/);
    expect(done).toContain('swapoff -a and remove it from /etc/fstab');
    expect(done).toMatch(/‼ DNS port 53/);
    expect(done).toMatch(/√ Operating system supported/);
    expect(done).toContain('1 failure, 1 warning');
    expect(done).not.toContain('Checking this host');

    // When p is pressed again, the checks run again
    await screen.press('p');
    await screen.waitFor('Checking this host');
    expect(fake.calls.count).toBe(2);
    fake.release();
    await screen.waitFor('1 failure');

    // When Esc is pressed, the Install page is back
    await screen.press(KEYS.esc);
    const back = await screen.waitFor('Press p to prepare nodes');
    expect(back).not.toContain('Swap off');
    expect(back).toContain('Install');
  });

  it('says "Ready to join: no failures" without failures', async () => {
    const fake = fakePreflight([ok('os', 'Operating system supported'), ok('hostname', 'Hostname valid as a node name', 'node-1')]);
    const screen = await renderApp(withPreflight(fake.preflight));
    await screen.press('2');
    await screen.waitFor('Press p to prepare nodes');
    await screen.press('p');
    await screen.waitFor('Checking this host');
    fake.release();
    const done = await screen.waitFor('Ready to join: no failures');
    expect(done).toMatch(/√ Hostname valid as a node name\s+node-1/);
  });

  it('shows a preflight that threw as a failed row', async () => {
    const screen = await renderApp(withPreflight(() => Promise.reject(new Error('cannot read /proc'))));
    await screen.press('2');
    await screen.waitFor('Press p to prepare nodes');
    await screen.press('p');
    const f = await screen.waitFor('cannot read /proc');
    expect(f).toMatch(/✗ Preflight checks/);
  });

  it('fits 80×24 with sixteen checks: passed rows fold so the failures and hints stay in sight', async () => {
    // Given all the rows fleetdeck preflight prints, three of them failing and two warning, with hints
    const items: CheckItem[] = Array.from({ length: 16 }, (_, i) => ok(`c${i}`, `Check number ${i}`));
    for (const i of [2, 7, 11]) items[i] = { id: `c${i}`, label: `Failing ${i}`, state: 'fail', detail: 'bad', hint: `fix number ${i}` };
    for (const i of [4, 9]) items[i] = { id: `c${i}`, label: `Warning ${i}`, state: 'warn', detail: 'meh', hint: `look at ${i}` };
    const screen = await renderScreen(
      <UiProvider value={{ ascii: false, color: false }}>
        <PrepareNodesPage state={{ status: 'done', run: 1, items }} width={79} height={18} />
      </UiProvider>,
    );
    const f = screen.frame();
    expect(f.split('\n').length).toBeLessThanOrEqual(18);
    for (const i of [2, 7, 11]) expect(f).toContain(`fix number ${i}`);
    for (const i of [4, 9]) expect(f).toContain(`look at ${i}`);
    expect(f).toContain('11 other checks passed');
    expect(f).toContain('3 failures, 2 warnings');
  });

  it('summarises', () => {
    expect(prepareSummary([ok('a', 'A')])).toBe('Ready to join: no failures');
    expect(prepareSummary([ok('a', 'A'), { id: 'b', label: 'B', state: 'warn' }])).toBe('Ready to join: no failures (1 warning)');
    expect(
      prepareSummary([
        { id: 'a', label: 'A', state: 'fail' },
        { id: 'b', label: 'B', state: 'fail' },
      ]),
    ).toMatch(/^2 failures: /);
  });
});

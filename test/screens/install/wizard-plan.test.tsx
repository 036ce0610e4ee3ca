/**
 * The install wizard's plan and progress pages, over fakes of its workflows run by the install
 * feed: the bundle named on the plan (the reference one asked about off the sandbox), and the
 * install's rows fitted to 80×24.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import type { InstallChoices, InstallPlanBundle } from '../../../src/store/install.js';
import { goToChecks, wizard } from '../../helpers/screens/install.js';
import { KEYS, renderScreen } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const REFERENCE: InstallPlanBundle = {
  name: 'fleetdeck reference bundle',
  source: 'built-in',
  reference: true,
  images: ['registry.k8s.io/etcd:3.5.9-0', 'registry.k8s.io/kube-apiserver:v1.28.4', 'elotl/nova-agent:v0.7.0'],
  overlays: [],
  notSandbox: [],
};

describe('the bundle on the plan', () => {
  it('names the bundle, says it is the reference one and lists its images; on the sandbox Enter installs', async () => {
    const seen: InstallChoices[] = [];
    const { el, calls } = wizard({
      initial: { hosting: 'kind-cp' },
      height: 40,
      work: {
        plan: (c) => {
          seen.push(c);
          return REFERENCE;
        },
      },
    });
    const screen = await renderScreen(el, { rows: 41 });
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to install');
    expect(plan).toMatch(/Bundle +fleetdeck reference bundle \(built-in\)/);
    expect(plan).toContain('not a Nova release');
    expect(plan).toMatch(/Images +registry\.k8s\.io\/etcd:3\.5\.9-0/);
    expect(plan).toContain('elotl/nova-agent:v0.7.0');
    expect(seen.at(-1)?.hosting).toBe('kind-cp');
    await screen.press(KEYS.enter);
    await screen.waitFor('Installed');
    expect(calls.installs).toHaveLength(1);
  });

  it('asks for y before the reference bundle goes to a cluster that is not the sandbox, naming it and --bundle', async () => {
    const { el, calls } = wizard({ initial: { hosting: 'kind-cp' }, work: { plan: () => ({ ...REFERENCE, notSandbox: ['kind-cp'] }) } });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('y install the reference bundle');
    const flat = plan.replace(/\s+/g, ' ');
    expect(flat).toContain('kind-cp is not the fleetdeck sandbox: press y to install the reference bundle there anyway');
    expect(flat).toContain('start again with --bundle DIR, its install/ directory');
    expect(plan).not.toContain('Press enter to install');
    // Enter does not install here; y does
    await screen.press(KEYS.enter, 'm');
    await screen.waitFor('and merged into /home/me/.kube/config');
    expect(calls.installs).toHaveLength(0);
    await screen.press('y');
    await screen.waitFor('Installed');
    expect(calls.installs).toHaveLength(1);
  });

  it('a release bundle is named with its directory and its overlays, and asks nothing more', async () => {
    const release: InstallPlanBundle = {
      name: 'nova-v0.8.0/install',
      source: '/srv/nova-v0.8.0/install',
      reference: false,
      images: ['example.com/nova/etcd:3.5.9'],
      overlays: ['overlays/cp-ha (patches)'],
      notSandbox: [],
    };
    const { el } = wizard({ initial: { hosting: 'kind-cp' }, height: 30, work: { plan: () => release } });
    const screen = await renderScreen(el, { rows: 31 });
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to install');
    expect(plan).toContain('nova-v0.8.0/install (/srv/nova-v0.8.0/install)');
    expect(plan).toMatch(/Overlays +overlays\/cp-ha \(patches\)/);
    expect(plan).not.toContain('not a Nova release');
  });
});

describe('install progress at 80×24', () => {
  it('never draws taller than the terminal: finished rows fold their children, the oldest lines give way', async () => {
    const rows: CheckItem[] = Array.from({ length: 25 }, (_, i) => ({
      id: `s${i}`,
      label: `Step ${i}`,
      state: 'ok',
      detail: 'done',
      children: [
        { id: `s${i}c`, label: `child of ${i}`, state: i === 24 ? 'warn' : 'ok', hint: i === 24 ? 'look here' : undefined } as CheckItem,
      ],
    }));
    const { el } = wizard({ initial: { hosting: 'kind-cp' }, work: { install: async () => ({ ok: true, steps: rows }) } });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    await screen.waitFor('Press enter to install');
    await screen.press(KEYS.enter);
    const frame = await screen.waitFor('Installed');
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    expect(frame).toMatch(/↑ \d+ more lines above/);
    expect(frame).toContain('Step 24');
    expect(frame).toContain('child of 24');
    expect(frame).toContain('look here');
    expect(frame).not.toContain('child of 23');
  });
});

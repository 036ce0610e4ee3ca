import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../../src/components/theme/index.js';
import { InstallWizard, type ChecksOutcome, type InstallOutcome, type WizardProps } from '../../../src/screens/install/wizard.js';
import {
  defaultClusterName,
  initialWizardState,
  wizardReducer,
  type WizardChoices,
} from '../../../src/screens/install/use-wizard-state.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { updateSlice } from '../../../src/store/fleet-store.js';
import { appProps, KEYS, renderApp, renderScreen, threeContexts, type Screen } from '../../helpers/screen.js';

afterEach(() => cleanup());

const CONTEXTS = ['kind-cp', 'kind-workload-1', 'kind-workload-2'];
/** The pages before the checks when the hosting cluster is given and no workload is picked. */
const TO_CHECKS = [
  'Hosting cluster',
  'Namespace of the control plane',
  'Workload clusters',
  'High availability',
  'Topology key',
  'Certificate validity',
];
const ok = (id: string, label: string): CheckItem => ({ id, label, state: 'ok', detail: 'fine' });

function wizard(overrides: Partial<WizardProps> = {}) {
  const calls = { checks: [] as WizardChoices[], installs: [] as WizardChoices[] };
  const props: WizardProps = {
    contexts: CONTEXTS,
    kubeconfigPath: '/home/me/.config/fleetdeck/nova.kubeconfig',
    userKubeconfig: '/home/me/.kube/config',
    readOnly: false,
    width: 79,
    runChecks: async (c, onProgress): Promise<ChecksOutcome> => {
      calls.checks.push(c);
      onProgress([{ id: 'reach', label: 'Hosting reachable', state: 'running' }]);
      return {
        items: [
          ok('reach', 'Hosting reachable'),
          { id: 'ver', label: 'Version', state: 'warn', detail: 'v1.20.2', hint: 'supported: 1.25–1.28' },
        ],
        blocking: false,
        warnings: true,
      };
    },
    runInstall: async (c, onProgress): Promise<InstallOutcome> => {
      calls.installs.push(c);
      onProgress([{ id: 'namespace', label: 'Namespace', state: 'running' }]);
      return { ok: true, steps: [ok('namespace', 'Namespace'), ok('fleet', 'Fleet recorded and verified')] };
    },
    onExit: vi.fn(),
    ...overrides,
  };
  return {
    props,
    calls,
    el: (
      <UiProvider value={{ ascii: false, color: false }}>
        <InstallWizard {...props} />
      </UiProvider>
    ),
  };
}

/** Enter on each page up to the checks, each once it shows. */
async function goToChecks(screen: Screen): Promise<void> {
  for (const title of TO_CHECKS) {
    await screen.waitFor(title);
    await screen.press(KEYS.enter);
  }
}

describe('install wizard pages', () => {
  it('walks every page with the keyboard, shows the checks and the plan, then installs', async () => {
    // Given the wizard on three contexts
    const { el, calls, props } = wizard();
    const screen = await renderScreen(el);
    await screen.waitFor('Hosting cluster');

    // When the operator picks kind-cp, keeps the namespace, selects both workloads, renames the second, keeps HA, its key and 10 years
    await screen.press(KEYS.enter);
    await screen.waitFor('Namespace of the control plane');
    await screen.press(KEYS.enter);
    // The hosting cluster is not offered as a workload
    expect(await screen.waitFor(/Workload clusters[\s\S]*kind-workload-2/)).not.toMatch(/❯.*kind-cp/);
    await screen.press(' ', KEYS.down, ' ', KEYS.enter);
    await screen.waitFor('Cluster name for kind-workload-1');
    await screen.press(KEYS.enter);
    await screen.waitFor('Cluster name for kind-workload-2');
    await screen.press(KEYS.backspace, 'b', KEYS.enter);
    await screen.waitFor('High availability');
    await screen.press(KEYS.enter);
    await screen.waitFor('Topology key');
    await screen.press(KEYS.enter);
    await screen.waitFor('Certificate validity');
    await screen.press(KEYS.enter);

    // Then the checks run with those choices and their warning is shown with its hint
    const checks = await screen.waitFor('Warnings above');
    expect(checks).toContain('Version');
    expect(checks).toContain('supported: 1.25–1.28');
    expect(calls.checks[0]).toMatchObject({
      hosting: 'kind-cp',
      namespace: 'elotl',
      workloads: ['kind-workload-1', 'kind-workload-2'],
      ha: true,
      topologyKey: 'topology.kubernetes.io/zone',
      validityYears: 10,
    });
    expect(calls.checks[0]!.clusterNames).toEqual({ 'kind-workload-1': 'kind-workload-1', 'kind-workload-2': 'kind-workload-b' });

    // When the warning is accepted, the plan lists the choices; Enter installs
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to install');
    expect(plan).toContain('kind-workload-b (kind-workload-2)');
    expect(plan).toContain('3 replicas, spread by topology.kubernetes.io/zone');
    expect(plan).toContain('/home/me/.config/fleetdeck/nova.kubeconfig');
    expect(plan).toContain('not merged into /home/me/.kube/config (m toggles)');
    await screen.press('m');
    await screen.waitFor('and merged into /home/me/.kube/config');
    expect(calls.installs).toHaveLength(0);
    await screen.press(KEYS.enter);
    const done = await screen.waitFor('Installed');
    expect(done).toContain('Fleet recorded and verified');
    expect(calls.installs).toHaveLength(1);
    expect(calls.installs[0]!.mergeKubeconfig).toBe(true);

    // And q leaves with exit 0
    await screen.press('q');
    expect(props.onExit).toHaveBeenCalledWith(0);
  });

  it('a blocking check stops the wizard before anything changes; n retries without HA', async () => {
    let runs = 0;
    const { el, calls } = wizard({
      initial: { hosting: 'kind-cp' },
      runChecks: async (c) => {
        runs++;
        calls.checks.push(c);
        if (c.ha) {
          return {
            items: [
              {
                id: 'zones',
                label: 'Topology for HA',
                state: 'fail',
                detail: '2 values of topology.kubernetes.io/zone',
                hint: 'use --no-ha or another key',
              },
            ],
            blocking: true,
            warnings: false,
          };
        }
        return { items: [ok('zones', 'Checks')], blocking: false, warnings: false };
      },
    });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    const blocked = await screen.waitFor('Blocked');
    expect(blocked).toContain('use --no-ha or another key');
    // Enter does not go on while a check fails: the page still says Blocked when n, pressed after
    // it, runs the checks again without HA
    const shown = screen.frames.length;
    await screen.press(KEYS.enter, 'n');
    await screen.waitFor('All checks passed');
    const rerun = shown + screen.frames.slice(shown).findIndex((f) => !f.includes('Blocked'));
    expect(screen.frames[rerun - 1]).toContain('Blocked');
    expect(calls.installs).toHaveLength(0);
    expect(runs).toBe(2);
    expect(calls.checks[1]!.ha).toBe(false);
    await screen.press(KEYS.enter);
    expect(await screen.waitFor('The plan')).toContain('single replica');
  });

  it('Esc goes back a page, keeping what was entered; an invalid namespace is refused with one line', async () => {
    const { el } = wizard();
    const screen = await renderScreen(el);
    await screen.press(KEYS.enter);
    await screen.waitFor('Namespace of the control plane');
    await screen.press(...Array<string>(8).fill(KEYS.backspace), 'B', 'a', 'd', KEYS.enter);
    expect(await screen.waitFor('not a valid namespace name')).toContain('"Bad"');
    await screen.press(KEYS.esc);
    await screen.waitFor('Hosting cluster');
  });

  it('in read-only mode the plan says the install is refused and Enter does nothing', async () => {
    const { el, calls } = wizard({ readOnly: true, initial: { hosting: 'kind-cp' } });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    await screen.waitFor('Read-only mode');
    // Enter installs nothing: m, pressed after it, still toggles the merge on the plan
    await screen.press(KEYS.enter, 'm');
    expect(await screen.waitFor('and merged into /home/me/.kube/config')).toContain('Read-only mode');
    expect(calls.installs).toHaveLength(0);
  });
});

const REFERENCE = {
  name: 'fleetdeck reference bundle',
  source: 'built-in',
  reference: true,
  images: ['registry.k8s.io/etcd:3.5.9-0', 'registry.k8s.io/kube-apiserver:v1.28.4', 'elotl/nova-agent:v0.7.0'],
};

describe('the bundle on the plan', () => {
  it('names the bundle, says it is the reference one and lists its images; on the sandbox Enter installs', async () => {
    const seen: WizardChoices[] = [];
    const { el, calls } = wizard({
      initial: { hosting: 'kind-cp' },
      height: 40,
      bundle: (c) => {
        seen.push(c);
        return { ...REFERENCE, notSandbox: [] };
      },
    });
    const screen = await renderScreen(el);
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
    const { el, calls } = wizard({ initial: { hosting: 'kind-cp' }, bundle: () => ({ ...REFERENCE, notSandbox: ['kind-cp'] }) });
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

  it('a release bundle is named with its directory and asks nothing more', async () => {
    const release = {
      name: 'nova-v0.8.0/install',
      source: '/srv/nova-v0.8.0/install',
      reference: false,
      images: ['example.com/nova/etcd:3.5.9'],
    };
    const { el } = wizard({ initial: { hosting: 'kind-cp' }, bundle: () => release });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to install');
    expect(plan).toContain('nova-v0.8.0/install (/srv/nova-v0.8.0/install)');
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
    const { el } = wizard({ initial: { hosting: 'kind-cp' }, runInstall: async () => ({ ok: true, steps: rows }) });
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

describe('the Install tab of the dashboard', () => {
  it('Enter opens the wizard, which owns the keyboard until it is done; a finished install is reported', async () => {
    // Given the dashboard with an installer
    const { props: deps } = wizard();
    const onQuit = vi.fn();
    const onInstalled = vi.fn();
    const store = threeContexts();
    const install = {
      open: async () => {
        updateSlice(store, 'install', () => ({ wizard: 'open' }));
        return deps;
      },
      closed: (code: number) => {
        updateSlice(store, 'install', () => ({ wizard: 'closed' }));
        if (code === 0) onInstalled();
      },
    };
    const screen = await renderApp(appProps(store, { onQuit, actions: { install } }));
    await screen.waitFor('kind-hosting');

    // When the operator goes to Install and presses Enter
    await screen.press('2');
    await screen.waitFor('Press enter to start the install wizard');
    await screen.press(KEYS.enter);
    await screen.waitFor('Hosting cluster');

    // Then keys are the wizard's: q typed into the namespace is text, not quit; Tab does not switch screens
    await screen.press(KEYS.enter);
    await screen.waitFor('Namespace of the control plane');
    await screen.press('q', KEYS.tab);
    expect(await screen.waitFor('elotlq')).toContain('Install · 2/10');
    expect(onQuit).not.toHaveBeenCalled();

    // When the install runs to the end and q is pressed
    await screen.press(KEYS.backspace, KEYS.enter);
    await screen.waitFor('Workload clusters');
    await screen.press(KEYS.enter);
    for (const title of ['High availability', 'Topology key', 'Certificate validity']) {
      await screen.waitFor(title);
      await screen.press(KEYS.enter);
    }
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    await screen.waitFor('Press enter to install');
    await screen.press(KEYS.enter);
    await screen.waitFor('Installed');
    await screen.press('q');

    // Then the Install tab is back, the dashboard was told, and it did not quit
    await screen.waitFor('Press enter to start the install wizard');
    expect(onInstalled).toHaveBeenCalledTimes(1);
    expect(onQuit).not.toHaveBeenCalled();
  });
});

describe('wizardReducer', () => {
  it('derives valid cluster names from context names', () => {
    expect(defaultClusterName('kind-workload-1')).toBe('kind-workload-1');
    expect(defaultClusterName('arn:aws:eks:eu-west-1:1234:cluster/Prod_EU')).toBe('prod-eu');
    expect(defaultClusterName('___')).toBe('cluster');
  });

  it('skips the topology page without HA and the names page without workloads', () => {
    let s = initialWizardState();
    s = wizardReducer(s, { type: 'hosting', context: 'a' });
    s = wizardReducer(s, { type: 'namespace', value: 'elotl' });
    s = wizardReducer(s, { type: 'workloads', contexts: [] });
    expect(s.page).toBe('ha');
    s = wizardReducer(s, { type: 'ha', ha: false });
    expect(s.page).toBe('validity');
    expect(wizardReducer(s, { type: 'back' }).page).toBe('ha');
    expect(wizardReducer(s, { type: 'validity', value: '0' }).error).toMatch(/whole number/);
  });

  it('refuses two workloads with the same cluster name', () => {
    let s = initialWizardState({ hosting: 'a' });
    s = { ...s, page: 'workloads' };
    s = wizardReducer(s, { type: 'workloads', contexts: ['b', 'c'] });
    s = wizardReducer(s, { type: 'clusterName', value: 'same' });
    s = wizardReducer(s, { type: 'clusterName', value: 'same' });
    expect(s.error).toMatch(/already the name/);
    expect(s.page).toBe('names');
  });
});

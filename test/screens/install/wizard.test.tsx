/**
 * The install wizard page by page, as `fleetdeck install` shows it, over fakes of its workflows
 * run by the install feed: the answers, the checks (blocking, without HA), the plan, the install;
 * Esc back; read-only.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { goToChecks, ok, wizard } from '../../helpers/screens/install.js';
import { KEYS, renderScreen } from '../../helpers/screens/screen.js';

afterEach(() => {
  cleanup();
});

describe('install wizard pages', () => {
  it('walks every page with the keyboard, shows the checks and the plan, then installs', async () => {
    // Given the wizard on three contexts
    const { el, calls, onExit } = wizard();
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
    expect(onExit).toHaveBeenCalledWith(0);
  });

  it('a blocking check stops the wizard before anything changes; n retries without HA', async () => {
    const zones = {
      id: 'zones',
      label: 'Topology for HA',
      state: 'fail' as const,
      detail: '2 values of topology.kubernetes.io/zone',
      hint: 'use --no-ha or another key',
    };
    const { el, calls } = wizard({
      initial: { hosting: 'kind-cp' },
      work: {
        checks: async (c) =>
          c.ha ? { items: [zones], blocking: true, warnings: false } : { items: [ok('zones', 'Checks')], blocking: false, warnings: false },
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
    expect(calls.checks).toHaveLength(2);
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

  it('in read-only mode the plan says the install is refused; Enter gets the gate’s one line and installs nothing', async () => {
    const { el, calls } = wizard({ readOnly: true, initial: { hosting: 'kind-cp' } });
    const screen = await renderScreen(el);
    await goToChecks(screen);
    await screen.waitFor('Warnings above');
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Read-only mode');
    // Installing is off the key line under --read-only
    expect(plan).not.toMatch(/enter install/);
    await screen.press(KEYS.enter);
    expect(await screen.waitFor('install changes clusters and is refused with --read-only')).toContain('Read-only mode');
    // m, pressed after it, still toggles the merge on the plan
    await screen.press('m');
    expect(await screen.waitFor('and merged into /home/me/.kube/config')).toContain('Read-only mode');
    expect(calls.installs).toHaveLength(0);
  });
});

/**
 * The install feed with its real workflows on the sandbox, reading only: the wizard opens with
 * the session's contexts and the control plane's kubeconfig beside the fleet file; checking
 * kind-cp with a workload says the built-in bundle on the plan (the sandbox: nothing to ask) and
 * runs the prerequisite checks live into the slice. Nothing is installed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startInstallFeed } from '../../../src/feeds/install/feed.js';
import { initialWizardState } from '../../../src/screens/install/use-wizard-state.js';
import { openSession } from '../../../src/session/session.js';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { planOf } from '../../../src/store/install.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-install-feed-'));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the install feed on the sandbox', () => {
  it('opens with the session’s contexts, says the bundle on the plan and runs the checks into the slice', async () => {
    const kubeconfig = sandbox().kubeconfig;
    const session = openSession({ kubeconfig }, { useFleetFile: false });
    const store = createFleetStore([]);
    const feed = startInstallFeed(store, session, { fleetFile: path.join(dir, 'fleet.yaml') });
    const slice = () => store.getState().install;

    feed.open();
    await vi.waitFor(() => expect(slice().wizard).toBe('open'), { timeout: 30_000 });
    expect(slice().setup?.contexts).toEqual(expect.arrayContaining(['kind-cp', 'kind-workload-1']));
    expect(slice().setup?.kubeconfigPath).toBe(path.join(dir, 'nova.kubeconfig'));
    expect(slice().setup?.userKubeconfig).toBe(path.resolve(kubeconfig));

    const choices = { ...initialWizardState().choices, hosting: 'kind-cp', workloads: ['kind-workload-1'], ha: false };
    feed.check(choices);
    expect(planOf(slice(), choices)).toMatchObject({ name: 'fleetdeck reference bundle', reference: true, notSandbox: [] });
    await vi.waitFor(() => expect(slice().checks?.done).toBe(true), { timeout: 120_000, interval: 200 });
    const labels = slice().checks?.items.map((i) => i.label) ?? [];
    expect(labels).toEqual(expect.arrayContaining(['kind-cp: reachable', 'kind-workload-1: reachable']));
    feed.close(1);
    expect(slice().wizard).toBe('closed');
    feed.stop();
  });
});

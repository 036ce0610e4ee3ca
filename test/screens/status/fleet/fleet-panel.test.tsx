import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetChecklist } from '../../../../src/report/fleet-checklist.js';
import { checklistLines } from '../../../../src/checklist/checklist.js';
import { UpdateBatcher } from '../../../../src/store/status.js';
import { fleetSummary } from '../../../../src/screens/status/fleet/fleet-summary.js';
import { novaFleet, threeContexts } from '../../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../../helpers/screens/screen.js';

afterEach(() => cleanup());

const lines = (frame: string) => frame.split('\n');
const row = (frame: string, name: string) => lines(frame).find((l) => l.includes(`${name} `)) ?? '';

describe('Fleet on the Status screen', () => {
  it('shows each context’s role, pods and warnings, and the fleet summary with what failed under the table', async () => {
    // Given a fleet with a crash-looping scheduler and a workload whose agent cannot pull its image
    const store = novaFleet();
    const expected = fleetSummary(fleetChecklist(store.getState()));

    // When the app renders
    const screen = await renderApp(appProps(store));
    const frame = await screen.waitFor('Fleet elotl on kind-cp');

    // Then the table has roles, pods (with the bad ones) and the number of warnings
    expect(lines(frame)[3]).toMatch(/NAME\s+ROLE\s+STATUS\s+VERSION\s+NODES\s+PODS\s+WARN/);
    expect(row(frame, 'kind-cp')).toMatch(/hosting\s+reachable\s+v1\.31\.0\s+3\/3\s+142, 3 bad\s+2$/);
    expect(row(frame, 'nova')).toMatch(/control\s+reachable/);
    expect(row(frame, 'kind-workload-1')).toMatch(/workload\s+reachable\s+v1\.31\.0\s+2\/2, 1 cordoned\s+88\s+0$/);
    expect(row(frame, 'kind-workload-2')).toMatch(/workload\s+reachable.*40, 1 bad\s+1$/);

    // And the summary line counts what the checklist found, followed by the failures and their hints
    expect(expected.state).toBe('fail');
    expect(frame).toContain(`✗ Fleet elotl on kind-cp: ${expected.text}`);
    expect(frame).toMatch(/✗ Nova scheduler status\s+Pending 0\/1 \(CrashLoopBackOff\)/);
    expect(frame).toContain('↳ see why it exits: kubectl --context=kind-cp -n elotl logs');
    expect(frame).toContain('Agent in kind-workload-2');
    expect(frame).not.toContain('API Server status');
  });

  it('f shows the whole checklist in the wording of nova status, and the clusters; c goes back', async () => {
    // Given the contexts table of a fleet
    const store = novaFleet();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('Fleet elotl on kind-cp');

    // When f is pressed
    await screen.press('f');

    // Then the checklist is shown from its first item, with the control plane components
    const frame = await screen.waitFor('Checking status of Nova Control Plane Components');
    const first = checklistLines(fleetChecklist(store.getState()))[1]?.item.label ?? '';
    expect(first).toBe('API Server status');
    expect(frame).toMatch(/√ API Server status\s+Running/);
    expect(frame).toMatch(/✗ Nova scheduler status\s+Pending 0\/1 \(CrashLoopBackOff\)/);
    expect(frame).toContain('✗ Nova Control Plane is not healthy');
    expect(frame).toMatch(/lines 1–\d+ of \d+/);
    expect(frame).not.toContain('NAME  ');
    expect(lines(frame).at(-1)).toContain('c contexts');

    // When the operator scrolls to the end
    await screen.press('G');

    // Then the workload clusters and the clusters table are there
    const end = await screen.waitFor('Clusters registered with the control plane (2)');
    expect(end).toMatch(/Agent in kind-workload-2\s+0\/1 ready \(ImagePullBackOff\)/);
    // (at 80 columns, the least telling columns left out for the room and the workloads)
    expect(end).toMatch(/NAME\s+K8S-VERSION\s+READY\s+STANDBY\s+CPU-FREE\s+MEM-FREE\s+WORKLOADS/);
    expect(end).toMatch(/kind-workload-2\s+v1\.31\.0\s+False\s+False/);

    // When c is pressed
    await screen.press('c');

    // Then the contexts table is back
    await screen.waitFor((f) => f.includes('ROLE') && f.includes('f: checklist'));
  });

  it('the summary line follows the store: healthy once the scheduler, the agent and the cluster recover', async () => {
    // Given the failing fleet
    const store = novaFleet();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('Fleet elotl on kind-cp');

    // When everything recovers
    const b = new UpdateBatcher(store, -1);
    const s = store.getState().status.contexts;
    const cpNs = s['kind-cp']!.fleetNamespace!;
    b.setSlice('kind-cp', 'fleetNamespace', {
      ...cpNs,
      workloads: cpNs.workloads.map((w) => ({ ...w, ready: w.desired })),
      pods: cpNs.pods.map((p) => ({ name: p.name, labels: p.labels, phase: 'Running', ready: true })),
    });
    const w2 = s['kind-workload-2']!.fleetNamespace!;
    b.setSlice('kind-workload-2', 'fleetNamespace', {
      ...w2,
      workloads: w2.workloads.map((w) => ({ ...w, ready: w.desired })),
      pods: w2.pods.map((p) => ({ name: p.name, labels: p.labels, phase: 'Running', ready: true })),
    });
    const cp = s.nova!.controlPlane!;
    b.setSlice('nova', 'controlPlane', { ...cp, clusters: cp.clusters.map((c) => ({ ...c, ready: 'True' })) });
    b.flush();

    // Then the summary says healthy, and no failure is listed
    const frame = await screen.waitFor(/√ Fleet elotl on kind-cp: healthy \(\d+ checks\)/);
    expect(frame).not.toContain('✗');
  });

  it('without a fleet: a hint under the table, and f shows how to define one', async () => {
    // Given contexts and no fleet
    const screen = await renderApp(appProps(threeContexts()));

    // Then a hint sits under the table, and there is no ROLE column
    const frame = await screen.waitFor('no fleet defined — press f to see how');
    expect(frame).not.toContain('ROLE');

    // When f is pressed
    await screen.press('f');

    // Then the checklist says there is no fleet, and how to define one
    const fleet = await screen.waitFor('No fleet defined');
    expect(fleet).toContain('--hosting-context');

    // When Esc is pressed, the table is back
    await screen.press(KEYS.esc);
    await screen.waitFor('no fleet defined — press f to see how');
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogActions } from '../../../src/store/actions.js';
import type { LogTarget } from '../../../src/store/log-target.js';
import { novaFleet } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

/** The dashboard on the Nova fleet, with a logs action that records what it is asked to open. */
async function dashboard() {
  const opened: LogTarget[] = [];
  const logs = { openLogs: (t: LogTarget) => opened.push(t) } as unknown as LogActions;
  const screen = await renderApp(appProps(novaFleet(), { actions: { logs } }));
  await screen.waitFor('Fleet elotl on kind-cp');
  return { screen, opened };
}

describe('l on the Status screen', () => {
  it('on the fleet checklist: a cursor over the rows; l opens the pods behind a component, and nothing on a row that has none', async () => {
    // Given the fleet checklist, its cursor on the title row
    const { screen, opened } = await dashboard();
    await screen.press('f');
    const first = await screen.waitFor('Checking status of Nova Control Plane Components');
    expect(first).not.toContain('l: logs');

    // When l is pressed on the title row
    await screen.press('l');
    // Then nothing is opened
    expect(opened).toEqual([]);

    // When the cursor moves to the API server's row
    await screen.press('j');
    // Then the hint offers its logs, and l asks for the API server's pods in the hosting context
    await screen.waitFor('l: logs');
    await screen.press('l');
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatchObject({ context: 'kind-cp', namespace: 'elotl', selector: 'component=apiserver' });

    // When the cursor goes to the last row (the registered cluster kind-workload-2) and l is pressed
    await screen.press('G');
    await screen.waitFor('Clusters registered with the control plane');
    await screen.press('l');
    // Then that cluster's agent is asked for, in its workload context
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    expect(opened[1]).toMatchObject({ context: 'kind-workload-2', namespace: 'elotl', selector: 'app=nova-agent' });
  });

  it("in a context's Pods section: l opens the selected pod", async () => {
    // Given the Pods section of kind-cp
    const { screen, opened } = await dashboard();
    await screen.press(KEYS.enter);
    await screen.press('p');
    await screen.waitFor('nova-scheduler-59d-x3');

    // When l is pressed on the first (worst) pod
    await screen.press('l');

    // Then that pod is asked for, and the section is still Pods (l no longer changes sections)
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatchObject({ context: 'kind-cp', namespace: 'elotl', pods: ['nova-scheduler-59d-x3'] });
    expect(screen.frame()).toContain('nova-scheduler-59d-x3');
  });
});

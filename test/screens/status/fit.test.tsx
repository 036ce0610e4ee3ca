import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetStore, setBanner } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { info, NOVA_FLEET, novaFleet, pods, problem, threeContexts, warning } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, type Screen } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

/** Every line at most 80 columns, and fewer lines than the 24 rows (a full frame scrolls the terminal). */
function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

/** Press keys, wait for `expected`, check the frame fits. */
async function visit(screen: Screen, keys: string[], expected: string | RegExp): Promise<string> {
  await screen.press(...keys);
  const frame = await screen.waitFor(expected);
  expectFits(frame);
  return frame;
}

describe('80×24', () => {
  it('every view of a fleet fits: table, fleet checklist, each section, rows shown in full, help', async () => {
    // Given a fleet with long names, long reasons and messages, many problem pods and warnings, and a banner
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    const long = 'x'.repeat(30);
    b.setSlice(
      'kind-cp',
      'pods',
      pods({
        total: 50_000,
        byPhase: { Running: 49_000, Pending: 700, Failed: 250, Succeeded: 40, Unknown: 10 },
        problemCount: 960,
        problems: Array.from({ length: 200 }, (_, i) =>
          problem(`very-long-deployment-name-${long}-${i}`, `Unschedulable: 0/300 nodes are available: ${long} ${long} ${long}`, {
            namespace: `namespace-${long}`,
            node: `node-${long}`,
            restarts: i * 1000,
          }),
        ),
      }),
    );
    b.setSlice('kind-cp', 'events', {
      synced: true,
      warnings: Array.from({ length: 20 }, (_, i) =>
        warning(`Reason${long}${i}`, `Pod namespace-${long}/pod-${long}-${i}`, i * 7, { count: i * 1000, message: `${long} `.repeat(20) }),
      ),
    });
    b.flush();
    setBanner(store, {
      kind: 'info',
      text: `sandbox running · kubectl: export KUBECONFIG=/home/ops/.local/state/fleetdeck/sandbox/${long}/${long}/kubeconfig`,
    });
    const screen = await renderApp(appProps(store, { kubeconfigFiles: [`/very/long/path/${long}/kubeconfig.yaml`, '/b'] }));

    // When every view is visited, Then each frame fits
    expectFits(await screen.waitFor('Fleet elotl on kind-cp'));
    await visit(screen, ['f'], 'Checking status of Nova Control Plane Components');
    await visit(screen, ['G'], 'Clusters registered');
    await visit(screen, ['c', KEYS.enter], 'Checks');
    await visit(screen, ['n'], 'KUBELET');
    await visit(screen, [KEYS.enter], 'zone zone-a · roles');
    await visit(screen, ['p'], 'needing attention');
    await visit(screen, ['G', KEYS.enter], 'Pending: Unschedulable');
    await visit(screen, ['/', 'x'], '/ x');
    await visit(screen, [KEYS.esc, 'e'], 'LAST SEEN');
    await visit(screen, [KEYS.enter], ' times, last ');
    await visit(screen, ['?'], 'Keys');
    await visit(screen, ['?', 'i'], 'Fleet role');
  });

  it('keeps the fleet summary line visible under a long list of contexts', async () => {
    // Given 40 workload contexts in a fleet
    const names = Array.from({ length: 40 }, (_, i) => `workload-${String(i).padStart(2, '0')}`);
    const store = createFleetStore(
      ['kind-cp', 'nova', ...names].map((n) => info(n)),
      { ...NOVA_FLEET, workloads: names.map((context) => ({ context, clusterName: context })) },
    );

    // When the app renders and the selection goes to the end
    const screen = await renderApp(appProps(store));
    let frame = await screen.waitFor('Fleet elotl on kind-cp');
    expectFits(frame);
    await screen.press('G');

    // Then the last context and the summary line are both shown
    frame = await screen.waitFor('workload-39');
    expectFits(frame);
    expect(frame).toContain('Fleet elotl on kind-cp');
    expect(frame).toMatch(/rows \d+–42 of 42/);
  });

  it('every view without a fleet fits, an unreachable context included', async () => {
    const screen = await renderApp(appProps(threeContexts()));
    expectFits(await screen.waitFor('no fleet defined'));
    await visit(screen, ['f'], 'No fleet defined');
    await visit(screen, [KEYS.esc, 'G', KEYS.enter], 'Last error');
    for (const [key, expected] of [['n'], ['p'], ['e']].map(([k]) => [k ?? '', 'listing'] as const)) await visit(screen, [key], expected);
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { setBanner } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { everyTab } from '../../helpers/screens/every-tab.js';
import { novaFleet, threeContexts, warning } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

function nonAscii(frame: string): string[] {
  return [...frame].filter((ch) => (ch.codePointAt(0) ?? 0) >= 128);
}

describe('ASCII mode', () => {
  it('draws every screen with ASCII characters only', async () => {
    // Given contexts that are connecting, unreachable with a Unicode error, NotReady, cordoned; a banner; read-only
    const store = threeContexts();
    const b = new UpdateBatcher(store, -1);
    b.patchContext('kind-workload-2', { lastError: 'dial tcp: “connection refused” – retrying…' });
    b.flush();
    setBanner(store, { kind: 'progress', text: 'starting the sandbox fleet…' });
    const ascii = { readOnly: true, ascii: true, color: false };
    const screen = await renderApp(
      appProps(store, { ui: ascii, kubeconfigFiles: ['/a/very/long/path/that/needs/to/be/cut/short/kubeconfig.yaml', '/b'] }),
    );

    // When every screen is visited
    const frames: string[] = [];
    frames.push(await screen.waitFor('kind-workload-2'));
    await screen.press('j', KEYS.enter);
    frames.push(await screen.waitFor('Checks'));
    await screen.press(KEYS.esc, 'G', KEYS.enter);
    frames.push(await screen.waitFor('Last error'));
    await screen.press(KEYS.esc, '/', 'x');
    frames.push(await screen.waitFor('/ x'));
    await screen.press(KEYS.esc, '?');
    frames.push(await screen.waitFor('Keys'));
    for (const [key, text] of [
      ['2', 'The guided install'],
      ['3', 'Coming'],
      ['4', 'Coming'],
    ] as const) {
      await screen.press(key);
      frames.push(await screen.waitFor(text));
    }

    // Then no frame has a character outside ASCII
    for (const frame of frames) expect(nonAscii(frame), frame).toEqual([]);
    expect(frames[0]).toContain('[read-only]');
    expect(frames[1]).toMatch(/\[!!\] Nodes ready\s+3\/4/);
    expect(frames[1]).toMatch(/\[xx\] w1-b/);
  });

  it('draws the fleet, its checklist and every section of a context with ASCII characters only', async () => {
    // Given a fleet in trouble, a Warning event with Unicode in it, ASCII mode
    const store = novaFleet();
    const b = new UpdateBatcher(store, -1);
    b.setSlice('kind-cp', 'events', {
      synced: true,
      warnings: [warning('FailedMount', 'Pod elotl/etcd-0', 2, { message: 'mount “nfs” failed – retrying… ×3 → giving up' })],
    });
    b.flush();
    const ui = { readOnly: false, ascii: true, color: false };
    const screen = await renderApp(appProps(store, { ui }));

    // When the table, the fleet checklist and each section (with a row shown in full, a filter) are visited
    const frames: string[] = [];
    const visit = async (keys: string[], expected: string) => {
      await screen.press(...keys);
      frames.push(await screen.waitFor(expected));
    };
    await visit([], 'Fleet elotl on kind-cp');
    await visit(['f'], 'Checking status of Nova Control Plane Components');
    await visit(['G'], 'Clusters registered');
    await visit(['c', KEYS.enter], 'Checks');
    await visit(['n'], 'KUBELET');
    await visit([KEYS.enter], 'zone zone-a');
    await visit(['p'], 'needing attention');
    await visit([KEYS.enter], 'restarts');
    await visit(['/', 'e'], '/ e');
    await visit([KEYS.esc, 'e'], 'LAST SEEN');
    await visit([KEYS.enter], 'giving up');
    await visit(['?'], 'Keys');

    // Then no frame has a character outside ASCII
    for (const frame of frames) expect(nonAscii(frame), frame).toEqual([]);
    expect(frames[0]).toContain('[xx] Fleet elotl on kind-cp');
    expect(frames[0]).toContain('142, 3 bad');
    expect(frames[1]).toMatch(/\[ok\] API Server status\s+Running/);
    expect(frames[10]).toContain('mount "nfs" failed - retrying... x3 -> giving up');
    expect(frames[11]).toContain('<- ->');
  });

  it('draws the Storage tab, every page of its estimate dialogue and the log view with ASCII characters only', async () => {
    // Given every tab offered, ASCII mode
    const screen = await renderApp(everyTab({ ui: { ascii: true, color: false } }));
    await screen.waitFor('kind-cp');

    // When the inventory, the dialogue's pages, a log and its search are visited
    const frames: string[] = [];
    const visit = async (keys: string[], expected: string) => {
      await screen.press(...keys);
      frames.push(await screen.waitFor(expected));
    };
    await visit(['4'], 'vg_data');
    await visit([KEYS.enter], '1/3 Features');
    await visit([KEYS.enter], '2/3 Pools');
    await visit([KEYS.enter], '3/3 Sizes');
    await visit([KEYS.esc, KEYS.esc, KEYS.esc], 'Estimate: required');
    await visit(['1', KEYS.enter, 'p', 'l'], 'line 40');
    await visit(['/', 'x'], '/x');

    // Then no frame has a character outside ASCII
    for (const frame of frames) expect(nonAscii(frame), frame).toEqual([]);
    expect(frames[1]).toMatch(/\[x\] Enable KloudInsights/);
    expect(frames[2]).toMatch(/Shared volumes\s+< vg_share >/);
  });
});

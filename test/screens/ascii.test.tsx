import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { setBanner, UpdateBatcher } from '../../src/store/fleet-store.js';
import { appProps, KEYS, renderApp, threeContexts } from './helpers.js';

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
    const screen = await renderApp(appProps(store, { ui: ascii, kubeconfigFiles: ['/a/very/long/path/that/needs/to/be/cut/short/kubeconfig.yaml', '/b'] }));

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
    for (const key of ['2', '3', '4']) {
      await screen.press(key);
      frames.push(await screen.waitFor('Coming'));
    }

    // Then no frame has a character outside ASCII
    for (const frame of frames) expect(nonAscii(frame), frame).toEqual([]);
    expect(frames[0]).toContain('[read-only]');
    expect(frames[1]).toMatch(/\[!!\] Nodes ready\s+3\/4/);
    expect(frames[1]).toMatch(/\[xx\] w1-b/);
  });
});


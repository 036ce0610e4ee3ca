import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { setBanner } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { node, threeContexts } from '../helpers/screens/fleets.js';
import { appProps, renderApp } from '../helpers/screens/screen.js';

afterEach(() => cleanup());

const lines = (frame: string) => frame.split('\n');

describe('Status screen', () => {
  it('shows one row per context with version and ready/total nodes', async () => {
    // Given a store with three contexts
    const store = threeContexts();

    // When the app renders
    const screen = await renderApp(appProps(store));

    // Then each context has a row with its version and nodes
    const frame = await screen.waitFor('kind-workload-2');
    const row = (name: string) => lines(frame).find((l) => l.includes(name)) ?? '';
    expect(row('kind-hosting')).toMatch(/reachable\s+3ms\s+v1\.31\.0\s+3\/3/);
    expect(row('kind-workload-1')).toMatch(/reachable\s+12ms\s+v1\.30\.2\s+3\/4, 1 cordoned/);
    expect(row('kind-workload-2')).toContain('v1.29.4');
    expect(frame).toContain('3 contexts');
    expect(frame).toContain('2 reachable');
  });

  it('says a context is unreachable, and since when and why on the line below', async () => {
    // Given an unreachable context
    const store = threeContexts();

    // When the app renders
    const screen = await renderApp(appProps(store));

    // Then its row says unreachable, and since when and the reason follow on the next line (where they have room)
    const frame = await screen.waitFor('since 10:42:07');
    const all = lines(frame);
    const at = all.findIndex((l) => l.includes('kind-workload-2'));
    expect(all[at]).toMatch(/kind-workload-2\s+unreachable\s/);
    expect(all[at + 1]).toContain('since 10:42:07: connect ECONNREFUSED 127.0.0.1:6445');
  });

  it('fits in 80×24: no line wider than 80 columns, fewer lines than rows', async () => {
    // Given contexts with long names and a long error
    const store = threeContexts();
    const b = new UpdateBatcher(store, -1);
    b.patchContext('kind-workload-2', {
      lastError: 'dial tcp 10.0.0.1:6443: i/o timeout while waiting for the control plane to answer the health probe',
    });
    b.flush();

    // When the app renders at 80×24
    const screen = await renderApp(
      appProps(store, { kubeconfigFiles: ['/very/long/path/to/some/deeply/nested/kubeconfig/file.yaml', '/b', '/c'] }),
    );
    const frame = await screen.waitFor('kind-workload-2');

    // Then nothing wraps and the live area is shorter than the terminal
    for (const line of lines(frame)) expect([...line].length).toBeLessThanOrEqual(80);
    expect(lines(frame).length).toBeLessThan(24);
    expect(frame).toContain('…');
  });

  it('redraws when the store changes after the first render', async () => {
    // Given a rendered app
    const store = threeContexts();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('since 10:42:07');

    // When the unreachable context comes back with its nodes
    const b = new UpdateBatcher(store, -1);
    b.patchContext('kind-workload-2', { reachability: 'reachable', latencyMs: 40, unreachableSince: undefined, lastError: undefined });
    b.resetNodes('kind-workload-2', [node('w2-a'), node('w2-b')]);
    b.flush();

    // Then its row says reachable with the new figures
    const frame = await screen.waitFor((f) => lines(f).some((l) => /kind-workload-2\s+reachable\s+40ms\s+v1\.29\.4\s+2\/2/.test(l)));
    expect(frame).not.toContain('unreachable');
    expect(frame).not.toContain('since 10:42:07');
    expect(frame).toContain('3 reachable');
  });

  it('shows the banner above the key hints', async () => {
    // Given a banner in the store
    const store = threeContexts();
    setBanner(store, { kind: 'error', text: 'sandbox: port 6443 is in use' });

    // When the app renders
    const screen = await renderApp(appProps(store));

    // Then the banner sits right above the key hints
    const frame = await screen.waitFor('port 6443 is in use');
    const all = lines(frame);
    expect(all.at(-2)).toContain('sandbox: port 6443 is in use');
    expect(all.at(-1)).toContain('q quit');
  });

  it('marks read-only mode in the context bar', async () => {
    // Given read-only mode
    const store = threeContexts();

    // When the app renders
    const screen = await renderApp(appProps(store, { ui: { readOnly: true, ascii: false, color: false } }));

    // Then the context bar says so
    const frame = await screen.waitFor('read-only');
    expect(lines(frame)[1]).toContain('[read-only]');
  });

  it('scrolls a long list with the selection and keeps within the terminal', async () => {
    // Given 40 contexts
    const { createFleetStore } = await import('../../src/store/fleet-store.js');
    const names = Array.from({ length: 40 }, (_, i) => `ctx-${String(i).padStart(2, '0')}`);
    const store = createFleetStore(names.map((name) => ({ name, cluster: name, user: 'u', server: 'https://x' })));
    const screen = await renderApp(appProps(store));
    await screen.waitFor('ctx-00');
    expect(screen.frame()).not.toContain('ctx-39');

    // When the selection moves to the end
    await screen.press('G');

    // Then the last context is visible, the first is not, and the frame still fits
    const frame = await screen.waitFor('ctx-39');
    expect(frame).not.toContain('ctx-00');
    expect(frame).toMatch(/rows \d+–40 of 40/);
    expect(lines(frame).length).toBeLessThan(24);
  });
});

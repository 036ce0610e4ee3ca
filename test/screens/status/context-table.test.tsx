import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { info, node } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const MISSING = 'cannot read the token file of user "ci-admin": open /etc/ci/token: no such file or directory';

describe('a context whose credentials cannot be loaded', () => {
  it('is "credentials" in the table, with what failed under its row, and its detail points at the kubeconfig user', async () => {
    // Given a reachable context and one whose token file is missing
    const store = createFleetStore([info('prod'), info('ci')]);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('prod', { reachability: 'reachable', latencyMs: 3, version: 'v1.31.0' });
    b.resetNodes('prod', [node('p-1')]);
    b.patchContext('ci', { reachability: 'credentials', lastError: MISSING });
    b.flush();

    // When the dashboard shows them
    const screen = await renderApp(appProps(store), { columns: 120, rows: 30 });
    const frame = await screen.waitFor('credentials');

    // Then the row says credentials (not unreachable), the line under it what failed; the other context is unaffected
    const lines = frame.split('\n');
    const row = lines.findIndex((l) => /\bci\b/.test(l) && l.includes('credentials'));
    expect(row).toBeGreaterThan(-1);
    expect(lines[row + 1]).toContain('cannot read the token file of user "ci-admin": open /etc/ci/token');
    expect(frame).not.toContain('unreachable');
    expect(lines.find((l) => l.includes('prod'))).toMatch(/reachable\s+3ms\s+v1\.31\.0\s+1\/1/);

    // When its detail is opened
    await screen.press('j', KEYS.enter);
    const detail = await screen.waitFor('Checks');

    // Then the API server was not asked, and the hint is about the user of the kubeconfig
    expect(detail).toMatch(/API server\s+not asked: credentials cannot be loaded/);
    expect(detail).toContain('fix user "ci-admin" of context ci in the kubeconfig');
    expect(detail).not.toContain('check the server URL');
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetStore } from '../../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../../src/store/status.js';
import { info, node } from '../../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../../helpers/screens/screen.js';

afterEach(() => cleanup());

const EU = 'gke_acme-prod_europe-west1_fleet-eu-1';
const US = 'gke_acme-prod_us-east1_fleet-us-1';

/** Two GKE contexts whose long context and node names leave no room for ZONE at 80 columns. */
function gkeFleet() {
  const store = createFleetStore([info(EU), info(US)]);
  const b = new UpdateBatcher(store, -1);
  for (const [name, region] of [
    [EU, 'europe-west1'],
    [US, 'us-east1'],
  ] as const) {
    b.patchContext(name, { reachability: 'reachable', version: 'v1.31.0', latencyMs: 5 });
    b.resetNodes(
      name,
      ['b', 'c', 'd'].map((z, i) => node(`gke-${name.slice(-10)}-default-pool-3f9a2c1b-x7k${i}`, { zone: `${region}-${z}` })),
    );
  }
  b.flush();
  return store;
}

describe('Fleet nodes view at 80 columns: a filter that matches a column left out for width', () => {
  it('keeps that column, so the rows show why they matched', async () => {
    // Given the fleet nodes view at 80 columns, too narrow for ZONE
    const screen = await renderApp(appProps(gkeFleet()), { columns: 80, rows: 24 });
    await screen.waitFor('fleet-eu-1');
    await screen.press('N');
    const all = await screen.waitFor('6 nodes in 2/2 contexts');
    expect(all).not.toContain('ZONE');

    // When the rows are filtered by a zone (in no other column)
    await screen.press('/', 'w', 'e', 's', 't', '1', '-', 'c', KEYS.enter);

    // Then the one matching row shows its zone, under a ZONE header, within 80 columns
    const frame = await screen.waitFor('1 of 6 match');
    const lines = frame.split('\n');
    expect(lines.find((l) => l.includes('CONTEXT'))).toMatch(/\bZONE\b/);
    const rows = lines.filter((l) => l.includes('x7k'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('europe-west1-c');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);

    // When the filter is cleared, ZONE gives way again
    await screen.press(KEYS.esc);
    await screen.waitFor((f) => !f.includes('match') && !f.includes('ZONE'));
  });
});

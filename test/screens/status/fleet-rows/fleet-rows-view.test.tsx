import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { createFleetStore } from '../../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../../src/store/status.js';
import { info, node, novaFleet, pods, problem, threeContexts } from '../../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../../helpers/screens/screen.js';

afterEach(() => cleanup());

const selectedRow = (frame: string) => frame.split('\n').find((l) => l.startsWith('❯')) ?? '';
const rowsOf = (frame: string, context: string) => frame.split('\n').filter((l) => l.slice(2).startsWith(context));

/** Every line at most `columns` wide and fewer lines than `rows`. */
function expectFits(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(columns);
  expect(lines.length, frame).toBeLessThan(rows);
}

/** 30 contexts of 5 nodes each, the nodes made 2 days ago; one context has a NotReady node. */
function thirtyContexts() {
  const names = Array.from({ length: 30 }, (_, i) => `ctx-${String(i).padStart(2, '0')}`);
  const store = createFleetStore(names.map(info));
  const b = new UpdateBatcher(store, -1);
  const created = Date.now() - 2 * 86_400_000;
  for (const name of names) {
    b.patchContext(name, { reachability: 'reachable', version: 'v1.31.0', latencyMs: 5 });
    b.resetNodes(
      name,
      Array.from({ length: 5 }, (_, i) =>
        node(`${name}-node-${i}`, { zone: `zone-${i % 3}`, roles: i === 0 ? ['control-plane'] : [], createdAt: created }),
      ),
    );
  }
  b.upsertNode('ctx-17', node('ctx-17-node-3', { ready: false, notReadyReason: 'KubeletNotReady', createdAt: created }));
  b.flush();
  return store;
}

describe('Fleet nodes view', () => {
  it('N shows every context’s nodes in one table; Esc goes back to the contexts', async () => {
    // Given the contexts table of three contexts (one unreachable)
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');

    // When N is pressed
    await screen.press('N');

    // Then the nodes of both reachable contexts are listed with their columns; the summary counts what is wrong
    const frame = await screen.waitFor('Fleet nodes');
    expect(frame).toMatch(/CONTEXT▲\s+NAME\s+ROLE\s+ZONE\s+STATUS\s+CORDONED\s+KUBELET\s+AGE/);
    expect(frame).toContain('7 nodes in 2/3 contexts · 1 NotReady · 1 cordoned');
    expect(rowsOf(frame, 'kind-hosting')).toHaveLength(3);
    expect(frame).toMatch(/kind-workload-1\s+w1-b\s+-\s+zone-b\s+NotReady\s+no/);
    expect(frame).toMatch(/kind-workload-1\s+w1-c\s+-\s+zone-b\s+Ready\s+yes\s+v1\.30\.2/);
    expect(selectedRow(frame)).toContain('h-1');
    expect(frame).toContain('s/S sort');

    // When Esc is pressed, the contexts table is back
    await screen.press(KEYS.esc);
    await screen.waitFor((f) => !f.includes('Fleet nodes') && f.includes('LATENCY'));
  });

  it('/ filters every row at once; s cycles the sort column and S reverses it', async () => {
    // Given the fleet nodes view
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');
    await screen.press('N');
    await screen.waitFor('Fleet nodes');

    // When the rows are filtered by a zone
    await screen.press('/', 'z', 'o', 'n', 'e', '-', 'b', KEYS.enter);

    // Then only the nodes of that zone are left, of both contexts
    const filtered = await screen.waitFor('3 of 7');
    expect(filtered).toMatch(/h-3/);
    expect(filtered).toMatch(/w1-b/);
    expect(filtered).toMatch(/w1-c/);
    expect(filtered).not.toMatch(/h-1|w1-a|w1-d/);
    expect(filtered).toContain('3 of 7 match · 3 rows ·');

    // And a filter that leaves one row counts it as one
    await screen.press(KEYS.esc, '/', 'w', '1', '-', 'a', KEYS.enter);
    expect(await screen.waitFor('1 of 7')).toContain('1 of 7 match · 1 row ·');

    // When Esc clears the filter and s sorts by the next column (NAME), then S reverses it
    await screen.press(KEYS.esc, 's');
    const byName = await screen.waitFor('NAME▲');
    expect(byName).toMatch(/CONTEXT\s+NAME▲/);
    await screen.press('S');
    const reversed = await screen.waitFor('NAME▼');
    expect(selectedRow(reversed)).toContain('w1-d');
    const names = reversed.split('\n').flatMap((l) => l.match(/\b(h-\d|w1-[a-d])\b/)?.[1] ?? []);
    expect(names).toEqual(['w1-d', 'w1-c', 'w1-b', 'w1-a', 'h-3', 'h-2', 'h-1']);

    // When s is pressed three more times the sort is by STATUS: NotReady comes first
    await screen.press('s', 's', 's');
    const byStatus = await screen.waitFor('STATUS▲');
    const statuses = byStatus
      .split('\n')
      .filter((l) => /\b(h-\d|w1-[a-d])\b/.test(l))
      .flatMap((l) => l.match(/\b(Ready|NotReady)\b/)?.[1] ?? []);
    expect(statuses).toEqual(['NotReady', 'Ready', 'Ready', 'Ready', 'Ready', 'Ready', 'Ready']);
  });

  it('? lists the keys of the fleet rows', async () => {
    // Given the fleet nodes view
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');
    await screen.press('N');
    await screen.waitFor('Fleet nodes');

    // When ? is pressed
    await screen.press('?');

    // Then the help names the sort, filter, Enter and view keys
    const help = await screen.waitFor('Fleet nodes / pods');
    for (const text of ['sort: next column', 'sort: reverse', 'filter every row', 'open at the row', 'nodes / pods', 'contexts'])
      expect(help).toContain(text);
  });

  it('a filter typed in one burst (as a fast terminal sends it) goes to the filter, not to the rows', async () => {
    // Given the fleet nodes view, the cursor on the last row
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');
    await screen.press('N', 'G');
    await screen.waitFor((f) => selectedRow(f).includes('w1-d'));

    // When "/", a filter holding j, k and g, and Enter arrive in one chunk
    await screen.press('/jkg-a\r');

    // Then it is the filter (nothing matches), the view still the fleet's nodes, no context opened
    const frame = await screen.waitFor('filter jkg-a');
    expect(frame).toContain('Nothing matches "jkg-a"');
    expect(frame).toContain('Fleet nodes');
    // With no row, Enter opens nothing and the hints do not offer it
    expect(
      frame
        .split('\n')
        .filter((l) => l.trim())
        .at(-1),
    ).not.toMatch(/enter open/);
    expect(frame).not.toContain('enter opens');
  });

  it('Enter opens the row’s context at its Nodes section with the row in sight; Esc twice comes back to the same row', async () => {
    // Given the fleet nodes view, the cursor on w1-c
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');
    await screen.press('N');
    await screen.waitFor('Fleet nodes');
    await screen.press('j', 'j', 'j', 'j', 'j');
    await screen.waitFor((f) => selectedRow(f).includes('w1-c'));

    // When Enter is pressed
    await screen.press(KEYS.enter);

    // Then kind-workload-1's Nodes section is open, filtered to that node
    const detail = await screen.waitFor('filter w1-c');
    expect(detail).toContain('kind-workload-1');
    expect(detail).toContain('1 of 4');
    expect(selectedRow(detail)).toContain('w1-c');

    // When Esc clears the filter and Esc goes back
    await screen.press(KEYS.esc, KEYS.esc);

    // Then the fleet nodes view is back, the same row selected
    const back = await screen.waitFor('Fleet nodes');
    expect(selectedRow(back)).toContain('w1-c');
  });

  it('is live: a node that turns NotReady in one context shows at once', async () => {
    // Given the fleet nodes view
    const store = threeContexts();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('kind-hosting');
    await screen.press('N');
    await screen.waitFor('1 NotReady');

    // When a watch reports h-2 NotReady
    const b = new UpdateBatcher(store, -1);
    b.upsertNode('kind-hosting', node('h-2', { zone: 'zone-a', ready: false, notReadyReason: 'KubeletNotReady' }));
    b.flush();

    // Then its row and the count say so
    const frame = await screen.waitFor('2 NotReady');
    expect(frame).toMatch(/kind-hosting\s+h-2\s+-\s+zone-a\s+NotReady/);
  });

  it('30 contexts lay out at 80×24, scroll with the cursor, and at 60×16; 30×8 says the terminal is too small', async () => {
    // Given 30 contexts of 5 nodes each at 80×24
    const screen = await renderApp(appProps(thirtyContexts()));
    await screen.waitFor('ctx-00');
    await screen.press('N');

    // Then the first page of 150 rows shows, and the frame fits
    const first = await screen.waitFor('150 nodes in 30/30 contexts · 1 NotReady');
    expectFits(first, 80, 24);
    expect(first).toMatch(/ctx-00\s+ctx-00-node-0\s+control-plane\s+zone-0\s+Ready\s+no\s+v1\.31\.0\s+2d/);
    expect(first).toMatch(/rows 1–\d+ of 150/);

    // When G jumps to the last row
    await screen.press('G');
    const last = await screen.waitFor((f) => selectedRow(f).includes('ctx-29-node-4'));
    expect(last).toMatch(/rows \d+–150 of 150/);
    expectFits(last, 80, 24);

    // When the filter finds the NotReady node
    await screen.press('/', 'N', 'o', 't', 'R', KEYS.enter);
    const found = await screen.waitFor('1 of 150');
    expect(selectedRow(found)).toContain('ctx-17-node-3');

    // When the terminal is 60×16 it still lays out
    await screen.resize(60, 16);
    const small = await screen.waitFor((f) => f.includes('Fleet nodes') && f.split('\n').every((l) => [...l].length <= 60));
    expectFits(small, 60, 16);
    expect(small).toContain('ctx-17-node-3');

    // When it is 30×8 the dashboard says it is too small
    await screen.resize(30, 8);
    await screen.waitFor('needs 60×15; this is 30×8');
  });
});

describe('Fleet pods view', () => {
  it('P lists the pods needing attention of every context, worst first; Enter opens the pod in its context', async () => {
    // Given a fleet with problem pods in two contexts
    const screen = await renderApp(appProps(novaFleet()));
    await screen.waitFor('kind-cp');

    // When P is pressed
    await screen.press('P');

    // Then every problem pod is listed with its context, namespace, reason and restarts
    const frame = await screen.waitFor('Fleet pods');
    expect(frame).toMatch(/CONTEXT▲\s+NAMESPACE\s+POD\s+REASON\s+RESTARTS\s+AGE/);
    expect(frame).toContain('4 pods need attention in 4/4 contexts');
    expect(frame).toMatch(/kind-cp\s+elotl\s+nova-scheduler-59d-x3\s+CrashLoopBack\S*\s+17/);
    expect(frame).toMatch(/kind-workload-2\s+elotl\s+nova-agent-6d5f9-abcde\s+ImagePullBack\S*\s+0/);
    const order = frame.split('\n').flatMap((l) => l.match(/(nova-scheduler|ingest|report|nova-agent)/)?.[1] ?? []);
    expect(order).toEqual(['nova-scheduler', 'ingest', 'report', 'nova-agent']);

    // When the sort is by RESTARTS (most first) the crash-looping pod is first
    await screen.press('s', 's', 's', 's');
    const byRestarts = await screen.waitFor('RESTARTS▲');
    expect(selectedRow(byRestarts)).toContain('nova-scheduler-59d-x3');

    // When the cursor goes to the last row (no restarts, the last context) and Enter is pressed
    await screen.press('G', KEYS.enter);

    // Then that pod's context opens at its Pods section, filtered to the pod
    const detail = await screen.waitFor('filter elotl/nova-agent-6d5f9-abcde');
    expect(detail).toContain('kind-workload-2');
    expect(selectedRow(detail)).toMatch(/elotl\/nova-agent-6d5f9-abcde\s+Pending\s+ImagePullBackOff/);
  });

  it('N and P swap the views, and says how many pods a context left out', async () => {
    // Given a context whose summary lists 2 of 250 problem pods
    const store = threeContexts();
    const b = new UpdateBatcher(store, -1);
    b.setSlice(
      'kind-hosting',
      'pods',
      pods({ total: 300, problemCount: 250, problems: [problem('a', 'Pending'), problem('b', 'CrashLoopBackOff', { restarts: 3 })] }),
    );
    b.flush();
    const screen = await renderApp(appProps(store));
    await screen.waitFor('kind-hosting');

    // When P then N then P are pressed
    await screen.press('P');
    await screen.waitFor('Fleet pods');
    await screen.press('N');
    await screen.waitFor('Fleet nodes');
    await screen.press('P');

    // Then the pods view counts the 248 not listed, and the contexts not read
    const frame = await screen.waitFor('Fleet pods');
    expect(frame).toContain('2 pods need attention in 1/3 contexts · 248 more not listed');
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

afterEach(() => cleanup());

const selectedRow = (frame: string) => frame.split('\n').find((l) => l.startsWith('❯')) ?? '';

describe('Keys', () => {
  it('j/k move the selection and Enter opens the context detail; Esc goes back', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor((f) => selectedRow(f).includes('kind-hosting'));

    // When the operator moves down twice, up once, and presses Enter
    await screen.press('j', KEYS.down, 'k', KEYS.enter);

    // Then the detail of the second context shows zones, NotReady reasons and cordoned nodes
    const detail = await screen.waitFor('Checks');
    expect(detail).toContain('kind-workload-1');
    expect(detail).toContain('https://127.0.0.1:6443/kind-workload-1');
    expect(detail).toContain('kind-workload-1-admin');
    expect(detail).toContain('policy/v1');
    expect(detail).toMatch(/Nodes ready\s+3\/4/);
    expect(detail).toMatch(/w1-b\s+KubeletNotReady: container runtime is down/);
    expect(detail).toMatch(/zone-a\s+1\/1/);
    expect(detail).toMatch(/zone-b\s+1\/2/);
    expect(detail).toMatch(/Cordoned\s+1 node/);
    expect(detail).toContain('v1.31.0 ×3, v1.30.2 ×1');

    // When Esc is pressed
    await screen.press(KEYS.esc);

    // Then the table is back, the same row still selected
    const table = await screen.waitFor('NAME');
    expect(selectedRow(table)).toContain('kind-workload-1');
  });

  it('the detail of an unreachable context shows its last error and last success', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');

    // When the operator opens the last context
    await screen.press('G', KEYS.enter);

    // Then its error and reachability are shown
    const detail = await screen.waitFor('Last error');
    expect(detail).toContain('connect ECONNREFUSED 127.0.0.1:6445');
    expect(detail).toContain('unreachable since 10:42:07');
  });

  it('the detail shows why nodes cannot be listed', async () => {
    // Given a context whose nodes are forbidden
    const store = threeContexts();
    const { UpdateBatcher } = await import('../../../src/store/status.js');
    const b = new UpdateBatcher(store, -1);
    b.nodesForbidden('kind-hosting', 'nodes is forbidden: User "viewer" cannot list resource "nodes"');
    b.flush();
    const screen = await renderApp(appProps(store));
    const list = await screen.waitFor('denied');
    expect(list.split('\n').find((l) => l.includes('kind-hosting'))).toMatch(/v1\.31\.0\s+denied/);

    // When its detail opens
    await screen.press(KEYS.enter);

    // Then the message is there
    const detail = await screen.waitFor('Checks');
    expect(detail).toContain('cannot list resource "nodes"');

    // When its Nodes section opens, it names the missing permission too
    await screen.press('n');
    const nodes = await screen.waitFor('Cannot list nodes: missing permission');
    expect(nodes).toContain('cannot list resource "nodes"');
    expect(nodes).toContain('n Nodes forbidden');
  });

  it('? shows every key and closes again', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');

    // When ? is pressed
    await screen.press('?');

    // Then the help lists the keys
    const help = await screen.waitFor('Keys');
    for (const text of ['quit', 'next screen', 'previous screen', 'go to screen', 'context details', 'filter by name'])
      expect(help).toContain(text);

    // When ? is pressed again
    await screen.press('?');

    // Then the table is back
    await screen.waitFor((f) => !f.includes('filter by name') && f.includes('kind-hosting'));
  });

  it('q quits', async () => {
    // Given the app
    const onQuit = vi.fn();
    const screen = await renderApp(appProps(threeContexts(), { onQuit }));
    await screen.waitFor('kind-hosting');

    // When q is pressed
    await screen.press('q');

    // Then onQuit was called
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
  });

  it('Ctrl-C quits, even while typing a filter', async () => {
    // Given a filter being typed
    const onQuit = vi.fn();
    const screen = await renderApp(appProps(threeContexts(), { onQuit }));
    await screen.waitFor('kind-hosting');
    await screen.press('/', 'q');
    await screen.waitFor('/ q');
    expect(onQuit).not.toHaveBeenCalled();

    // When Ctrl-C is pressed
    await screen.press(KEYS.ctrlC);

    // Then onQuit was called
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
  });

  it('Tab and 2 switch to the Install screen; Shift-Tab and 1 come back', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');

    // When Tab is pressed
    await screen.press(KEYS.tab);

    // Then the Install screen shows, and no longer the contexts
    expect(await screen.waitFor('The guided install')).not.toContain('kind-hosting');

    // When Shift-Tab is pressed
    await screen.press(KEYS.shiftTab);
    expect(await screen.waitFor('NAME')).not.toContain('The guided install');

    // When 2 is pressed
    await screen.press('2');
    await screen.waitFor('The guided install');

    // When 3, 4 and 5 are pressed
    await screen.press('3');
    await screen.waitFor('Coming: replace groups of nodes');
    await screen.press('4');
    await screen.waitFor('Coming: what storage');

    await screen.press('5');
    await screen.waitFor('Where Nova placed each workload');

    // When Tab wraps around
    await screen.press(KEYS.tab);

    // Then Status is back
    expect(await screen.waitFor('kind-hosting')).not.toContain('Where Nova placed each workload');
  });

  it('/ filters the contexts by name; Esc clears the filter', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-workload-2');

    // When "work" and then "load-2" are typed after /
    await screen.press('/', 'w', 'o', 'r', 'k');
    let frame = await screen.waitFor('2 of 3');
    expect(frame).not.toContain('kind-hosting');
    await screen.press(...'load-2');
    frame = await screen.waitFor('1 of 3');

    // Then only the matching row is left
    expect(frame).toContain('kind-workload-2');
    expect(frame).not.toContain('kind-workload-1');

    // When Enter keeps the filter and Enter opens the one row
    await screen.press(KEYS.enter);
    await screen.waitFor('esc clears');
    await screen.press(KEYS.enter);
    await screen.waitFor('Last error');

    // When Esc goes back and Esc clears the filter
    await screen.press(KEYS.esc);
    await screen.waitFor('esc clears');
    await screen.press(KEYS.esc);

    // Then all rows are back
    frame = await screen.waitFor((f) => f.includes('kind-hosting') && f.includes('kind-workload-1'));
    expect(frame).not.toContain('of 3');
  });

  it('a filter that matches nothing says so; backspace widens it again', async () => {
    // Given a filter typed
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');
    await screen.press('/', 'z', 'z');

    // Then nothing matches
    await screen.waitFor('No context matches "zz"');

    // When both letters are deleted
    await screen.press(KEYS.backspace, KEYS.backspace);

    // Then all three rows are back
    const frame = await screen.waitFor((f) => f.includes('3 of 3') && f.includes('kind-hosting'));
    expect(frame).not.toContain('No context matches');
  });

  it('takes keys that arrive in one chunk one by one, as over a slow SSH link', async () => {
    // Given the status table
    const screen = await renderApp(appProps(threeContexts()));
    await screen.waitFor('kind-hosting');

    // When "jj" and Enter arrive together
    await screen.press('jj\r');

    // Then the third context opens
    await screen.waitFor('Last error');

    // When Esc, then a filter typed and kept, then Enter, arrive
    await screen.press(KEYS.esc, '/load-1\r', '\r');

    // Then the only match opens
    const frame = await screen.waitFor('Checks');
    expect(frame).toContain('kind-workload-1');
  });

  it('each key of a chunk goes where the key before sent it: the filter keeps letters and digits, a view opened takes the next', async () => {
    // Given the status table
    const onQuit = vi.fn();
    const screen = await renderApp(appProps(threeContexts(), { onQuit }));
    await screen.waitFor('kind-hosting');

    // When "/qa2" arrives in one chunk, the filter takes q, a and 2: nothing quits, the tab stays
    await screen.press('/qa2');
    const typed = await screen.waitFor('/ qa2');
    expect(typed).toContain('No context matches');
    expect(onQuit).not.toHaveBeenCalled();

    // When Esc, then Enter and n arrive together, the detail opens and n opens its Nodes section
    await screen.press(KEYS.esc);
    await screen.waitFor('kind-workload-2');
    await screen.press('\rn');
    await screen.waitFor('KUBELET');
    expect(onQuit).not.toHaveBeenCalled();
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MIN_SIZE, tooSmall } from '../../src/screens/min-size.js';
import { tooSmallLine } from '../../src/screens/too-small.js';
import { everyTab } from '../helpers/screens/every-tab.js';
import { KEYS, renderApp, type Screen } from '../helpers/screens/screen.js';

afterEach(() => cleanup());

const NEED = `${MIN_SIZE.columns}×${MIN_SIZE.rows}`;

/** The frame is one line, narrower than the terminal, saying the size needed and the size it is. */
function expectOneLine(frame: string, columns: number, rows: number): void {
  expect(frame.split('\n'), frame).toHaveLength(1);
  expect([...frame].length, frame).toBeLessThan(columns);
  expect(frame).toContain(`needs ${columns > 40 ? 'at least ' : ''}${NEED}`);
  expect(frame).toContain(`this is ${columns}×${rows}`);
}

describe('tooSmallLine', () => {
  it('says the size needed and the size it is, in as many words as the width allows', () => {
    expect(tooSmallLine(50, 10, 79)).toBe(`fleetdeck needs at least ${NEED}; this is 50×10 · q quits`);
    expect(tooSmallLine(50, 10, 49)).toBe(`fleetdeck needs at least ${NEED}; this is 50×10`);
    expect(tooSmallLine(30, 8, 29)).toBe(`needs ${NEED}; this is 30×8`);
    expect(tooSmallLine(12, 8, 11)).toBe(`needs ${NEED}`);
    expect([...tooSmallLine(5, 8, 4)]).toHaveLength(4);
  });

  it('is needed below the minimum either way, not at it', () => {
    expect(tooSmall(MIN_SIZE.columns, MIN_SIZE.rows)).toBe(false);
    expect(tooSmall(MIN_SIZE.columns - 1, 40)).toBe(true);
    expect(tooSmall(200, MIN_SIZE.rows - 1)).toBe(true);
  });
});

/** Each tab, and a view inside it, reached with these keys from the start at 80×24. */
const TABS: [name: string, keys: string[], shows: string][] = [
  ['Status', [], 'kind-workload-2'],
  ['a context’s detail', [KEYS.enter, 'n'], 'KUBELET'],
  ['Approvals', ['A'], '3 pending'],
  ['Install', ['2'], 'Press enter to start the install wizard'],
  ['the install wizard', ['2', KEYS.enter], 'Hosting cluster'],
  ['Prepare nodes', ['2', 'p'], 'failure'],
  ['Rollouts', ['3'], 'rollout-20261122-0530'],
  ['the new-rollout wizard', ['3', 'n'], '1/6 Context'],
  ['Storage', ['4'], 'vg_data'],
  ['the storage estimate', ['4', KEYS.enter], '1/3 Features'],
  ['the help', ['?'], 'Everywhere'],
];

async function open(keys: string[], shows: string, onQuit = vi.fn()): Promise<Screen> {
  const screen = await renderApp(everyTab({ onQuit }));
  await screen.waitFor('kind-workload-2');
  for (const key of keys) {
    await screen.press(key);
    // Some pages load before they take the next key (the wizard's dependencies, the inventory).
    await screen.waitFor((f) => f.trim() !== '');
  }
  await screen.waitFor(shows);
  return screen;
}

describe('a terminal smaller than the minimum', () => {
  it.each(TABS)('%s: one line at 30×8; back as it was at 80×24', async (_name, keys, shows) => {
    // Given a screen at 80×24
    const screen = await open(keys, shows);
    const before = screen.frame();

    // When the terminal shrinks to 30×8, Then one line says so
    await screen.resize(30, 8);
    expectOneLine(await screen.waitFor('needs'), 30, 8);

    // When it grows again, Then the same screen is back
    await screen.resize(80, 24);
    const after = await screen.waitFor(shows);
    // Clocks and spinners may have moved on; the screen's lines are the same otherwise.
    const steady = (f: string) => f.replace(/\d\d:\d\d:\d\d|\d+[ms]\d*s?|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g, '#');
    expect(steady(after)).toBe(steady(before));
  });

  it('starts with the line when the terminal is already too small, and draws the dashboard once it is big enough', async () => {
    const screen = await renderApp(everyTab(), { columns: 100, rows: MIN_SIZE.rows - 1 });
    const frame = await screen.waitFor('needs');
    expect(frame).toBe(`fleetdeck needs at least ${NEED}; this is 100×${MIN_SIZE.rows - 1} · q quits`);
    await screen.resize(MIN_SIZE.columns, MIN_SIZE.rows);
    await screen.waitFor('1 Status');
  });

  it('keeps what was chosen and typed, and takes no key but quit while it is too small', async () => {
    // Given the new-rollout wizard with a selector typed
    const onQuit = vi.fn();
    const screen = await open(['3', 'n'], '1/6 Context', onQuit);
    await screen.press(KEYS.down, KEYS.down, KEYS.enter);
    await screen.waitFor('Nodes by label selector · kind-workload-1');
    await screen.press(...'role=worker');
    await screen.waitFor('matches 8 of 8');

    // When the terminal is too small, keys do nothing to the hidden wizard
    await screen.resize(40, 10);
    await screen.waitFor('needs');
    await screen.press(KEYS.esc, KEYS.backspace, 'x', KEYS.enter);

    // Then, back at 80×24, the wizard is on the same page with the same text
    await screen.resize(80, 24);
    const frame = await screen.waitFor('Selector: role=worker');
    expect(frame).toContain('Nodes by label selector · kind-workload-1');
    expect(frame).toContain('matches 8 of 8');
    expect(onQuit).not.toHaveBeenCalled();

    // And q quits from the one line, as from the dashboard
    await screen.resize(30, 8);
    await screen.waitFor('needs');
    await screen.press('q');
    expect(onQuit).toHaveBeenCalledTimes(1);
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { novaFleet } from '../../../helpers/screens/fleets.js';
import { appProps, renderApp } from '../../../helpers/screens/screen.js';

afterEach(() => cleanup());

// biome-ignore lint/suspicious/noControlCharactersInRegex: styles are what is taken out
const plain = (frame: string) => frame.replace(/\u001B\[[0-9;]*m/g, '');
/** The lines that start with the pointer, as the tables mark their selected row. */
const marked = (frame: string, pointer: string) =>
  plain(frame)
    .split('\n')
    .filter((l) => l.startsWith(`${pointer} `));

describe('Fleet checklist: the selected row without colour', () => {
  it('carries the pointer in its first column, and the pointer moves with j/k', async () => {
    // Given the fleet checklist, colours off (as --no-color or NO_COLOR)
    const screen = await renderApp(appProps(novaFleet(), { ui: { color: false } }));
    await screen.waitFor('Fleet elotl on kind-cp');
    await screen.press('f');
    const frame = await screen.waitFor('Checking status of Nova Control Plane Components');

    // Then the first row, and only it, has the pointer; the other lines keep its room
    expect(marked(frame, '❯')).toEqual([expect.stringContaining('Checking status of Nova Control Plane Components')]);
    expect(plain(frame)).toMatch(/\n {2}√ API Server status\s+Running/);

    // When j is pressed twice, then k once
    await screen.press('j', 'j', 'k');

    // Then the pointer is on the second row
    const moved = await screen.waitFor((f) => marked(f, '❯')[0]?.includes('API Server status') ?? false);
    expect(marked(moved, '❯')).toHaveLength(1);
    expect(marked(moved, '❯')[0]).toMatch(/^❯ √ API Server status\s+Running/);

    // When G goes to the last row (a registered cluster), the pointer is on its line
    await screen.press('G');
    const last = await screen.waitFor((f) => marked(f, '❯')[0]?.includes('kind-workload-2') ?? false);
    expect(marked(last, '❯')).toHaveLength(1);
    for (const line of plain(last).split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it('is ">" under --ascii', async () => {
    // Given the fleet checklist in ASCII, colours off
    const screen = await renderApp(appProps(novaFleet(), { ui: { ascii: true, color: false } }));
    await screen.waitFor('Fleet elotl on kind-cp');
    await screen.press('f', 'j');

    // Then the second row has the ASCII pointer
    const frame = await screen.waitFor((f) => marked(f, '>')[0]?.includes('API Server status') ?? false);
    expect(marked(frame, '>')).toHaveLength(1);
  });
});

import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { novaFleet, threeContexts } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../helpers/screens/screen.js';

// Ink colors through its own chalk, which decides when it loads: force colors
// before the imports so "color off" has something to prove.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

afterEach(() => cleanup());
afterAll(() => {
  delete process.env.FORCE_COLOR;
});

/** SGR foreground/background color codes: 30–37, 38;…, 40–47, 48;…, 90–97, 100–107. */
const ESC = String.fromCharCode(27);
const COLOR = new RegExp(`${ESC}\\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`);

describe('Colors', () => {
  afterEach(() => {
    delete process.env.NO_COLOR;
  });

  it('uses colors when they are on', async () => {
    // Given colors on
    const screen = await renderApp(appProps(threeContexts(), { ui: { readOnly: true, ascii: false, color: true } }));

    // Then the frame is colored
    const frame = await screen.waitFor('kind-workload-2');
    expect(frame).toMatch(COLOR);
  });

  it('emits no color when color is off', async () => {
    // Given colors off
    const screen = await renderApp(appProps(threeContexts(), { ui: { readOnly: true, ascii: false, color: false } }));

    // When the table, the detail and the help are drawn
    const frames = [await screen.waitFor('kind-workload-2')];
    await screen.press('j', KEYS.enter);
    frames.push(await screen.waitFor('Checks'));
    await screen.press('?');
    frames.push(await screen.waitFor('Keys'));

    // Then none has a color code
    for (const frame of frames) expect(frame).not.toMatch(COLOR);
  });

  it('colors only the bad part of a PODS cell', async () => {
    // Given a fleet, colors on
    const screen = await renderApp(appProps(novaFleet(), { ui: { readOnly: false, ascii: false, color: true } }));

    // Then "142" is plain and ", 3 bad" is in the warning color (yellow)
    const frame = await screen.waitFor('Fleet elotl');
    expect(frame).toContain(` 142${ESC}[33m, 3 bad`);
  });

  it('no view of a fleet has color when it is off', async () => {
    // Given colors off
    const screen = await renderApp(appProps(novaFleet(), { ui: { readOnly: false, ascii: false, color: false } }));

    // When the fleet checklist and each section are drawn
    const frames = [await screen.waitFor('Fleet elotl')];
    for (const [keys, expected] of [
      [['f'], 'Nova Control Plane'],
      [['c', KEYS.enter, 'n'], 'KUBELET'],
      [['p', KEYS.enter], 'restarts'],
      [['e', KEYS.enter], 'last'],
    ] as const) {
      await screen.press(...keys);
      frames.push(await screen.waitFor(expected));
    }

    // Then none has a color code
    for (const frame of frames) expect(frame).not.toMatch(COLOR);
  });

  it('honours NO_COLOR', async () => {
    // Given NO_COLOR set and colors asked for
    process.env.NO_COLOR = '1';
    const screen = await renderApp(appProps(threeContexts(), { ui: { readOnly: false, ascii: false, color: true } }));

    // Then no color code is emitted
    const frame = await screen.waitFor('kind-workload-2');
    expect(frame).not.toMatch(COLOR);
  });
});

/**
 * Every tab of the registry, drawn at 80×24 and 60×16: its hint line and its help overlay come
 * from its key tables (every hint on the bottom line is an action of one of them, every key in
 * the help is one of theirs or the app's own), and the tab bar and number keys from the registry.
 * The same for every overlay (the log view), opened over the first tab. In a terminal large
 * enough, the framed help box of every tab lists every key of the groups shown.
 */
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { type KeyAction, type KeyTable, helpOf, keysLabel } from '../../src/components/key-actions/index.js';
import { registry } from '../../src/dashboard/registry.js';
import { globalKeys } from '../../src/screens/keys/global.js';
import { everyTab } from '../helpers/screens/every-tab.js';
import { renderApp } from '../helpers/screens/screen.js';

afterEach(() => cleanup());

const { tabs, overlays } = registry();
const SEPARATOR = ' · ';

/** What the hint line may say of an action: its keys, and its words (any, when they depend on the state). */
function mayHint(a: KeyAction<never>): { key: string; words?: string } {
  const words = typeof a.hint === 'string' ? a.hint : a.hint === undefined ? a.description : undefined;
  return { key: keysLabel(a, true), ...(words !== undefined ? { words } : {}) };
}

/** Whether one "key words" of the bottom line is an action of these tables. */
function fromTables(segment: string, tables: readonly KeyTable<never>[]): boolean {
  return tables
    .flatMap((t) => t.actions)
    .map(mayHint)
    .some((h) => (h.words === undefined ? segment.startsWith(`${h.key} `) : segment === `${h.key} ${h.words}`));
}

const bottomLine = (frame: string) =>
  frame
    .split('\n')
    .filter((l) => l.trim() !== '')
    .at(-1) ?? '';

describe.each([
  [80, 24],
  [60, 16],
])('every tab of the registry at %i×%i', (columns, rows) => {
  it.each(tabs.map((t, i) => [t.title, i] as const))('%s: the hints and the help come from its key tables', async (_title, i) => {
    const tab = tabs[i]!;
    const screen = await renderApp(everyTab(), { columns, rows });
    await screen.waitFor('kind-cp');
    await screen.press(String(i + 1));

    // The tab bar is the registry's, this tab's number key shows it
    const frame = await screen.waitFor((f) => {
      const segments = bottomLine(f).split(SEPARATOR);
      return segments.length > 1 && segments.every((s) => fromTables(s, tab.keys)) && !f.includes('loading');
    });
    expect(frame.split('\n')[0]).toMatch(new RegExp(tabs.map((t, n) => `${n + 1} ${t.title}`).join('\\s+')));

    // The help lists the app's keys and this tab's, nothing else
    await screen.press('?');
    const help = await screen.waitFor('Everywhere');
    expect(tab.keys.map((t) => helpOf(t)).filter((s) => help.includes(s.title)).length, help).toBeGreaterThan(0);
    expect(bottomLine(help)).toContain('esc close help');
  });
});

// 240 columns: the Rollouts tab's groups side by side need about 220.
describe('every tab of the registry in a terminal its help box fits', () => {
  it.each(tabs.map((t, i) => [t.title, i] as const))(
    "%s: the framed box holds every key of the groups shown, in the table's words",
    async (_title, i) => {
      const screen = await renderApp(everyTab(), { columns: 240, rows: 48 });
      await screen.waitFor('kind-cp');
      await screen.press(String(i + 1), '?');
      const help = await screen.waitFor('Everywhere');
      expect(help, 'the framed box').toMatch(/^\s*╭─+╮\n\s*│ Keys/m);
      const own = tabs[i]!.keys.map((t) => helpOf(t)).filter((s) => help.includes(s.title));
      expect(own.length, help).toBeGreaterThan(0);
      const keys = [helpOf(globalKeys(tabs.length), true), ...own].flatMap((s) => s.keys.map((k) => ({ ...k, group: s.title })));
      expect(keys.filter((k) => !help.includes(k.label)).map((k) => `${k.group}: ${k.key} ${k.label}`)).toEqual([]);
    },
  );
});

/** How a test opens each overlay of the registry. */
const OPEN: Record<string, (props: ReturnType<typeof everyTab>) => void> = {
  logs: (props) => props.actions!.logs!.openLogs({ title: 'api', context: 'kind-cp', namespace: 'default', pods: ['api-1'] }),
};

describe.each([
  [80, 24],
  [60, 16],
])('every overlay of the registry at %i×%i', (columns, rows) => {
  it.each(overlays.map((o, i) => [o.id, i] as const))('%s: the hints and the help come from its key tables', async (id, i) => {
    const overlay = overlays[i]!;
    const props = everyTab();
    const screen = await renderApp(props, { columns, rows });
    await screen.waitFor('kind-cp');
    expect(OPEN[id], `a way to open the ${id} overlay`).toBeDefined();
    OPEN[id]!(props);
    await screen.waitFor((f) => {
      const segments = bottomLine(f).split(SEPARATOR);
      return segments.length > 1 && segments.every((s) => fromTables(s, overlay.keys));
    });
    await screen.press('?');
    const help = await screen.waitFor('Everywhere');
    expect(overlay.keys.map((t) => helpOf(t)).filter((s) => help.includes(s.title)).length, help).toBeGreaterThan(0);
  });
});

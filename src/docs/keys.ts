/**
 * docs/keys.md: every key of the dashboard, view by view, from the key tables the screens declare
 * (each tab of the registry, each overlay, the keys every screen shares, the help's own), in the
 * words of the help overlay: `helpOf`, as the screens make their help. `npm run docs:keys` writes
 * the file (src/docs/write-keys.ts); test/docs/keys.test.ts fails when it differs from this.
 */
import type { HelpSection } from '../components/help-overlay/index.js';
import { helpOf, type KeyTable } from '../components/key-actions/index.js';
import { registry } from '../dashboard/registry.js';
import { helpViewKeys } from '../screens/help-view.js';
import { globalKeys } from '../screens/keys/global.js';

/** The file, from the package's root. */
export const KEYS_FILE = 'docs/keys.md';

/** A cell of a Markdown table: a `|` escaped (also inside a code span, as GitHub reads tables). */
const cell = (text: string) => text.replaceAll('|', '\\|');
const keyCell = (key: string) => (key.includes('`') ? cell(key) : `\`${cell(key)}\``);

function sectionLines(section: HelpSection, owns: boolean): string[] {
  if (section.keys.length === 0) return [];
  return [
    `### ${section.title}`,
    '',
    ...(owns ? ['Takes every key while it is shown: of the keys under "Everywhere", only those listed here work.', ''] : []),
    '| key | action |',
    '|---|---|',
    ...section.keys.map((k) => `| ${keyCell(k.key)} | ${cell(k.label)} |`),
    '',
  ];
}

/** A view's group as its help shows it: a table that owns the keyboard lists the shared keys it keeps. */
const tableLines = (table: KeyTable<never>) => sectionLines(helpOf(table, table.owns === true), table.owns === true);

export function keysMarkdown(): string {
  const { tabs, overlays } = registry();
  const lines = [
    '# Keys',
    '',
    '<!-- Written by `npm run docs:keys` from the key tables of src/screens: edit those, not this file. -->',
    '',
    'Every key of the dashboard ([`fleetdeck`](commands/dashboard.md)), view by view, in the words of its help.',
    'On screen, the bottom line shows the keys of the view in front that apply now, and `?` lists that',
    "view's keys beside the ones every screen has. Under `--read-only` the keys that would change a",
    "cluster leave the bottom line and answer with the write gate's one line.",
    '',
    '## Everywhere',
    '',
    'Every screen, unless the view in front takes every key (a wizard, a dialogue, a filter being typed, the log view).',
    '',
    ...sectionLines(helpOf(globalKeys(tabs.length), true), false).slice(2),
  ];
  tabs.forEach((tab, i) => {
    lines.push(`## ${i + 1} ${tab.title}`, '', `The ${tab.title} tab (\`${i + 1}\`).`, '');
    for (const table of tab.keys) lines.push(...tableLines(table));
  });
  for (const overlay of overlays) {
    lines.push(`## Over any tab: ${overlay.id}`, '', 'Opened over whichever tab is shown.', '');
    for (const table of overlay.keys) lines.push(...tableLines(table));
  }
  lines.push('## The help (`?`)', '', ...sectionLines(helpOf(helpViewKeys(tabs.length)), false).slice(2));
  return `${lines.join('\n').trimEnd()}\n`;
}

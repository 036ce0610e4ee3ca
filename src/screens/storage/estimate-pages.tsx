import { Text } from 'ink';
import type { ReactNode } from 'react';
import { padEnd, truncate, width as textWidth, wrap, type ColorRole, type Theme } from '../../components/theme/index.js';
import { gbAmount } from '../../report/storage/estimate-words.js';
import type { Estimate, Pools } from '../../storage/estimate.js';
import type { EstimateState } from '../../store/storage-estimate.js';

/** One line of the dialogue: text cut to the width, in a tone. */
export interface Line {
  key: string;
  node: ReactNode;
}

/** The dialogue's two kinds of line at a width: plain text in a tone, and a focusable row. */
export interface LineKit {
  theme: Theme;
  width: number;
  text(key: string, s: string, tone?: ColorRole, opts?: { bold?: boolean }): Line;
  row(key: string, focused: boolean, s: string): Line;
}

export function lineKit(theme: Theme, width: number): LineKit {
  return {
    theme,
    width,
    text: (key, s, tone, opts = {}) => ({
      key,
      node: (
        <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} bold={opts.bold ?? false} wrap="truncate-end">
          {truncate(theme.text(s), width, theme.ellipsis)}
        </Text>
      ),
    }),
    row: (key, focused, s) => ({
      key,
      node: (
        <Text wrap="truncate-end" inverse={focused}>
          <Text color={focused ? theme.color('accent') : undefined}>{focused ? `${theme.pointer} ` : '  '}</Text>
          {truncate(theme.text(s), width - 2, theme.ellipsis)}
        </Text>
      ),
    }),
  };
}

/** A page's lines: under the title (head), its rows (page, scrolled to the focus), and after them. */
export interface PageLines {
  head: Line[];
  page: Line[];
  after: Line[];
}

const HEADINGS = {
  features: 'What features do you want to use',
  pools: 'Which pool serves shared and which unshared volumes',
  sizes: 'How much storage do you want to assign to each volume',
};

function box(on: boolean, theme: Theme): string {
  return theme.ascii ? (on ? '[x]' : '[ ]') : on ? '◉' : '◯';
}

const samePools = (a: Pools, b: Pools) => a.shared === b.shared && a.unshared === b.unshared;

/** Features: one row per feature, enabled or not, with what its volumes take. */
export function featuresPage(kit: LineKit, { catalogue, features, form }: EstimateState): PageLines {
  const head: Line[] = [];
  head.push(kit.text('catalogue', `Catalogue: ${catalogue.name}${catalogue.description ? ` — ${catalogue.description}` : ''}`, 'muted'));
  head.push(kit.text('heading', HEADINGS.features, undefined, { bold: true }));
  const labelWidth = Math.min(34, Math.max(...features.map((f) => textWidth(`Enable ${f.label}`))));
  const pageLines = features.map((f, i) => {
    const gb = [f.shared ? `${gbAmount(f.shared)} shared` : '', f.unshared ? `${gbAmount(f.unshared)} unshared` : ''];
    const what = `${f.volumes} volume${f.volumes === 1 ? '' : 's'}: ${gb.filter(Boolean).join(', ')}`;
    const row = `${box(f.on, kit.theme)} ${padEnd(`Enable ${f.label}`, labelWidth)}  ${f.on ? 'Yes' : 'No '}  ${what}`;
    return kit.row(`f:${f.name}`, i === form.focus, row);
  });
  return { head, page: pageLines, after: [] };
}

/** Pools: which volume group serves shared and which unshared volumes, and why the defaults. */
export function poolsPage(kit: LineKit, { form, options, defaults }: EstimateState, est: Estimate | undefined): PageLines {
  const head: Line[] = [];
  const pageLines: Line[] = [];
  const after: Line[] = [];
  head.push(kit.text('heading', HEADINGS.pools, undefined, { bold: true }));
  const choice = (p: string | undefined) => (kit.theme.ascii ? `< ${p ?? 'none'} >` : `‹ ${p ?? 'none'} ›`);
  const shared = choice(form.pools.shared);
  const unshared = choice(form.pools.unshared);
  const w = Math.max(textWidth(shared), textWidth(unshared));
  pageLines.push(kit.row('p:shared', form.focus === 0, `Shared volumes    ${padEnd(shared, w)}  replicated: every node holds a copy`));
  pageLines.push(
    kit.row('p:unshared', form.focus === 1, `Unshared volumes  ${padEnd(unshared, w)}  node-local, e.g. an LVM logical volume`),
  );
  const reason = samePools(form.pools, defaults.pools) ? defaults.reason : (est?.poolReason ?? defaults.reason);
  for (const [i, l] of wrap(kit.theme.text(reason), kit.width).slice(0, 2).entries()) after.push(kit.text(`reason${i}`, l));
  if (options.length === 0) after.push(kit.text('novg', 'No volume group is known on the nodes: nothing to choose from.', 'warn'));
  return { head, page: pageLines, after };
}

/** Sizes: a text field per enabled volume (GB), the first invalid one said under them. */
export function sizesPage(kit: LineKit, { form, volumes, rejected }: EstimateState): PageLines {
  const head: Line[] = [];
  const pageLines: Line[] = [];
  const after: Line[] = [];
  head.push(kit.text('heading', HEADINGS.sizes, undefined, { bold: true }));
  const labelWidth = Math.min(44, Math.max(...volumes.map((v) => textWidth(`${v.label} (GB)`)), 10));
  if (!volumes.length) pageLines.push(kit.text('none', 'No feature is enabled: go back (esc) to choose one.', 'muted'));
  volumes.forEach((v, i) => {
    const focused = i === form.focus;
    const typed = form.typed[v.name] ?? String(v.defaultGB);
    const bad = rejected.some((r) => r.volume === v.name);
    const kindText = `  ${v.kind}`;
    const valueRoom = Math.max(4, kit.width - 2 - labelWidth - 3 - kindText.length);
    const value = truncate(typed, valueRoom - 1, kit.theme.ellipsis);
    const cursor = focused ? (kit.theme.ascii ? '_' : '█') : '';
    pageLines.push({
      key: `v:${v.name}`,
      node: (
        <Text wrap="truncate-end" bold={focused}>
          <Text color={focused ? kit.theme.color('accent') : undefined}>{focused ? `${kit.theme.pointer} ` : '  '}</Text>
          {truncate(kit.theme.text(padEnd(`${v.label} (GB)`, labelWidth)), labelWidth, kit.theme.ellipsis)}
          {' : '}
          <Text inverse={focused && form.fresh} color={bad ? kit.theme.color('fail') : undefined}>
            {kit.theme.text(value)}
          </Text>
          <Text color={kit.theme.color('accent')}>{cursor}</Text>
          {' '.repeat(Math.max(0, valueRoom - textWidth(value) - cursor.length))}
          <Text dimColor>{kindText}</Text>
        </Text>
      ),
    });
  });
  const invalid = rejected[0];
  if (invalid)
    after.push(kit.text('invalid', `${invalid.label}: ${invalid.error} (${gbAmount(form.sizes[invalid.volume] ?? 0)} counts)`, 'fail'));
  return { head, page: pageLines, after };
}

export interface NodeRow {
  node: string;
  available: { shared: number; unshared: number };
  status: string;
  tone: ColorRole | undefined;
}

/** The per-node table in `nodeBudget` lines (a header, the rows, "+n more"). */
export function nodeTable(kit: LineKit, nodeRows: readonly NodeRow[], nodeBudget: number): Line[] {
  const nodeLines: Line[] = [];
  if (!nodeRows.length || nodeBudget < 2) return nodeLines;
  const nameWidth = Math.min(Math.max(...nodeRows.map((r) => textWidth(r.node)), 4), Math.max(8, kit.width - 40));
  const cols = (a: string, b: string, c: string, d: string) =>
    `${padEnd(truncate(a, nameWidth, kit.theme.ellipsis), nameWidth)}  ${padEnd(b, 10)}${padEnd(c, 10)}${d}`;
  nodeLines.push(kit.text('nodes', cols('NODE', 'SHARED', 'UNSHARED', ''), 'muted'));
  const room = nodeBudget - 1;
  const shown = nodeRows.length <= room ? nodeRows : nodeRows.slice(0, room - 1);
  for (const r of shown)
    nodeLines.push(kit.text(`n:${r.node}`, cols(r.node, gbAmount(r.available.shared), gbAmount(r.available.unshared), r.status), r.tone));
  const rest = nodeRows.slice(shown.length);
  if (rest.length) {
    const short = rest.filter((r) => r.tone === 'fail').length;
    nodeLines.push(
      kit.text(
        'more',
        `+${rest.length} more node${rest.length === 1 ? '' : 's'}${short ? `, ${short} short` : ', all fit'}`,
        short ? 'fail' : 'muted',
      ),
    );
  }
  return nodeLines;
}

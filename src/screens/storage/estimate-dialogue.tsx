import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useTheme, wrap, type ColorRole, type Theme } from '../../components/theme/index.js';
import type { Catalogue } from '../../storage/catalogue.js';
import { amounts, REMINDER, shortfallText } from '../../report/storage/estimate-words.js';
import { estimate, type Estimate, type Pools } from '../../storage/estimate.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import {
  enabledVolumes,
  estimateInput,
  firstInvalid,
  FORM_PAGES,
  poolOptions,
  type EstimateForm,
  type FormAction,
  type FormPage,
} from './estimate-form.js';
import { featuresPage, lineKit, nodeTable, poolsPage, sizesPage, type Line, type LineKit, type NodeRow } from './estimate-pages.js';
import { useEstimateKeys } from './use-estimate-keys.js';

export interface EstimateDialogueProps {
  /** What the estimate is for: the context's name, or "this host". */
  target: string;
  catalogue: Catalogue;
  storage: ClusterStorage;
  form: EstimateForm;
  dispatch: (action: FormAction) => void;
  /** The pools `defaultPools` chose and why ("Using vg_data for unshared volumes"). */
  defaults: { pools: Pools; reason: string };
  /** Key c: the next catalogue (absent: only one is offered). */
  onNextCatalogue?: (() => void) | undefined;
  /** A one-line problem outside the form (a catalogue that cannot be read). */
  problem?: string | undefined;
  width: number;
  /** Rows available; the dialogue never draws taller. */
  height: number;
  /** Leave: `done` when the choices were confirmed (enter on the last size). */
  onClose: (done: boolean) => void;
}

const TITLES: Record<FormPage, string> = {
  features: 'Features',
  pools: 'Pools',
  sizes: 'Sizes',
};

/**
 * The storage estimate, page by page as the seed asks: which features to enable; which pool
 * serves shared and which unshared volumes; the size of each volume, defaults pre-filled. Under
 * every page, live: what the enabled volumes require against what is available (the smallest
 * node's, since each node needs it), per node, and the verdict. Owns the keyboard: Enter goes
 * on, Esc goes back a page (closes on the first), Ctrl-C closes.
 */
export function EstimateDialogue(props: EstimateDialogueProps) {
  const { target, catalogue, storage, form, dispatch, defaults, onNextCatalogue, problem, width, height, onClose } = props;
  const theme = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the estimate depends on the choices, not on the focus or the page
  const result = useMemo((): { estimate: Estimate } | { error: string } => {
    try {
      return { estimate: estimate(catalogue, storage, estimateInput(form, catalogue)) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }, [catalogue, storage, form.features, form.sizes, form.pools]);
  const est = 'estimate' in result ? result.estimate : undefined;
  const volumes = enabledVolumes(catalogue, form.features);
  const options = useMemo(() => poolOptions(storage), [storage]);
  useEstimateKeys({ catalogue, form, dispatch, options, onNextCatalogue, onClose });

  const kit = lineKit(theme, width);
  const page =
    form.page === 'features'
      ? featuresPage(kit, catalogue, form)
      : form.page === 'pools'
        ? poolsPage(kit, form, options, defaults, est)
        : sizesPage(kit, form, volumes, firstInvalid(form, volumes));
  const title = `Storage estimate · ${FORM_PAGES.indexOf(form.page) + 1}/${FORM_PAGES.length} ${TITLES[form.page]} · ${target}`;
  const head: Line[] = [kit.text('title', title, undefined, { bold: true }), ...page.head];
  const pageLines = page.page;
  const after: Line[] = [...page.after, ...(problem ? [kit.text('problem', problem, 'fail')] : [])];
  const { footer, tail } = summaryLines(kit, result, storage);
  const keyLine = kit.text('keys', keysFor(form.page, !!onNextCatalogue, theme), 'muted');

  // Fit: the per-node table takes what the page leaves (the nodes that fall short first).
  const nodeRows = est && form.page !== 'features' && storage.nodes.length > 0 ? perNodeRows(est, theme) : [];
  const fixed = head.length + after.length + footer.length + tail.length + 1 /* key line */ + 2; /* gaps */
  const minNodes = nodeRows.length ? Math.min(nodeRows.length + 1, 4) : 0;
  const pageBudget = Math.max(1, Math.min(pageLines.length, height - fixed - minNodes));
  const pageStart = Math.max(0, Math.min(form.focus - Math.floor(pageBudget / 2), pageLines.length - pageBudget));
  const pageShown = pageLines.slice(pageStart, pageStart + pageBudget);
  const nodeBudget = Math.max(0, height - fixed - pageShown.length);
  const nodeLines = nodeTable(kit, nodeRows, nodeBudget);

  // The rows scrolled out of sight are counted on the line under the page (blank otherwise).
  const hidden = pageLines.length - pageShown.length;
  const gap1 = hidden > 0 ? kit.text('gap1', `… ${hidden} more (↑/↓)`, 'muted') : { key: 'gap1', node: <Text> </Text> };
  const all: Line[] = [
    ...head,
    ...pageShown,
    ...after,
    gap1,
    ...footer,
    ...nodeLines,
    ...tail,
    { key: 'gap2', node: <Text> </Text> },
    keyLine,
  ];
  // Still too tall: the reminder and the blank line go first, then lines above the keys, which always show.
  const spare = new Set(['remember', 'gap2']);
  const lines = all.length > height ? all.filter((l) => !spare.has(l.key)) : all;
  const fitted = lines.length > height ? [...lines.slice(0, Math.max(0, height - 1)), keyLine] : lines;
  return (
    <Box flexDirection="column" width={width}>
      {fitted.map((l) => (
        <Box key={l.key}>{l.node}</Box>
      ))}
    </Box>
  );
}

/** What every page ends with: the totals, live, and the verdict. */
function summaryLines(
  kit: LineKit,
  result: { estimate: Estimate } | { error: string },
  storage: ClusterStorage,
): { footer: Line[]; tail: Line[] } {
  const { theme, width } = kit;
  const est = 'estimate' in result ? result.estimate : undefined;
  const text = kit.text;
  const verdictTone: ColorRole = !est ? 'fail' : est.ok ? 'ok' : 'fail';
  const verdictText = 'error' in result ? result.error : est ? est.verdict : '';
  const verdictLines = wrap(`${theme.symbol(est?.ok ? 'ok' : 'fail')} ${theme.text(verdictText)}`, width).slice(0, 3);
  const footer: Line[] = [];
  if (est) {
    footer.push(text('required', `Required: ${amounts(est.required)}`, undefined, { bold: true }));
    footer.push(text('available', `Available: ${amounts(est.available)}${storage.nodes.length > 1 ? " (the smallest node's)" : ''}`));
  }
  const tail: Line[] = [
    ...verdictLines.map((l, i) => text(`verdict${i}`, l, verdictTone, { bold: i === 0 })),
    text('remember', REMINDER, 'muted'),
  ];
  return { footer, tail };
}

/** Each node's room against what is required; those that fall short first. */
function perNodeRows(est: Estimate, theme: Theme): NodeRow[] {
  const rows = est.perNode.map((n): NodeRow => {
    const short = shortfallText(n.shortfall);
    return {
      node: n.node,
      available: n.available,
      status: short ? `${theme.symbol('fail')} ${short}` : theme.symbol('ok'),
      tone: short ? 'fail' : undefined,
    };
  });
  const lack = (i: number) => (est.perNode[i]?.shortfall.shared ?? 0) + (est.perNode[i]?.shortfall.unshared ?? 0);
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => lack(b.i) - lack(a.i) || a.i - b.i)
    .map((x) => x.r);
}

function keysFor(page: FormPage, catalogues: boolean, theme: Theme): string {
  const s = theme.separator;
  switch (page) {
    case 'features':
      return `↑/↓ move ${s} space enable/disable ${s} enter next${catalogues ? ` ${s} c catalogue` : ''} ${s} esc close`;
    case 'pools':
      return `↑/↓ move ${s} ←/→ change pool ${s} enter next ${s} esc back`;
    case 'sizes':
      return `↑/↓ volume ${s} type GB ${s} backspace ${s} enter next/done ${s} esc back ${s} ctrl-c close`;
  }
}

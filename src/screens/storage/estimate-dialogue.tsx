import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { useKeyActions } from '../../components/key-actions/index.js';
import { useTheme, wrap, type ColorRole, type Theme } from '../../components/theme/index.js';
import { amounts, REMINDER, shortfallText } from '../../report/storage/estimate-words.js';
import type { Estimate } from '../../storage/estimate.js';
import type { StorageEstimateActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { ESTIMATE_PAGES, type EstimatePage, type EstimateState } from '../../store/storage-estimate.js';
import { useAppCommands } from '../keys/app-commands.js';
import { ESTIMATE_KEYS } from './estimate-keys.js';
import { featuresPage, lineKit, nodeTable, poolsPage, sizesPage, type Line, type LineKit, type NodeRow } from './estimate-pages.js';

export interface EstimateDialogueProps {
  store: FleetStore;
  actions: StorageEstimateActions;
  /** The target's key in the slice, and what the title calls it (the context's name, or "this host"). */
  targetKey: string;
  target: string;
  /** Its keys listen. */
  active: boolean;
  width: number;
  /** Rows available; the dialogue never draws taller. */
  height: number;
}

const TITLES: Record<EstimatePage, string> = {
  features: 'Features',
  pools: 'Pools',
  sizes: 'Sizes',
};

/**
 * The storage estimate, page by page as the seed asks: which features to enable; which pool
 * serves shared and which unshared volumes; the size of each volume, defaults pre-filled. Under
 * every page, live: what the enabled volumes require against what is available (the smallest
 * node's, since each node needs it), per node, and the verdict. Its state is the storage feed's
 * (the slice's `estimates`); it owns the keyboard: Enter goes on, Esc goes back a page (closes on
 * the first), Ctrl-C closes.
 */
export function EstimateDialogue({ store, actions, targetKey: key, target, active, width, height }: EstimateDialogueProps) {
  const theme = useTheme();
  const app = useAppCommands();
  const state = useStore(store, (s) => s.storage.estimates[key]);
  const nodes = useStore(store, (s) => s.storage.inventories[key]?.storage?.nodes.length ?? 0);
  const catalogues = useStore(store, (s) => s.storage.catalogueFiles.length);
  useKeyActions(
    ESTIMATE_KEYS,
    () => ({
      app,
      state: store.getState().storage.estimates[key] ?? state!,
      catalogues,
      send: (intent) => actions.send(intent),
      close: () => actions.close(),
    }),
    { active: active && state !== undefined },
  );
  if (!state) return null;
  const lines = dialogueLines(lineKit(theme, width), state, nodes, target, height);
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((l) => (
        <Box key={l.key}>{l.node}</Box>
      ))}
    </Box>
  );
}

/** The dialogue's lines in `height`: the per-node table takes what the page leaves (the nodes that fall short first). */
function dialogueLines(kit: LineKit, state: EstimateState, nodes: number, target: string, height: number): Line[] {
  const { form, result } = state;
  const est = 'estimate' in result ? result.estimate : undefined;
  const page =
    form.page === 'features' ? featuresPage(kit, state) : form.page === 'pools' ? poolsPage(kit, state, est) : sizesPage(kit, state);
  const title = `Storage estimate · ${ESTIMATE_PAGES.indexOf(form.page) + 1}/${ESTIMATE_PAGES.length} ${TITLES[form.page]} · ${target}`;
  const head: Line[] = [kit.text('title', title, undefined, { bold: true }), ...page.head];
  const after: Line[] = [...page.after, ...(state.error ? [kit.text('problem', state.error, 'fail')] : [])];
  const { footer, tail } = summaryLines(kit, result, nodes);

  const nodeRows = est && form.page !== 'features' && nodes > 0 ? perNodeRows(est, kit.theme) : [];
  const fixed = head.length + after.length + footer.length + tail.length + 1; /* the gap under the page */
  const minNodes = nodeRows.length ? Math.min(nodeRows.length + 1, 4) : 0;
  const pageBudget = Math.max(1, Math.min(page.page.length, height - fixed - minNodes));
  const pageStart = Math.max(0, Math.min(form.focus - Math.floor(pageBudget / 2), page.page.length - pageBudget));
  const pageShown = page.page.slice(pageStart, pageStart + pageBudget);
  const nodeLines = nodeTable(kit, nodeRows, Math.max(0, height - fixed - pageShown.length));

  // The rows scrolled out of sight are counted on the line under the page (blank otherwise).
  const hidden = page.page.length - pageShown.length;
  const gap = hidden > 0 ? kit.text('gap', `… ${hidden} more (↑/↓)`, 'muted') : { key: 'gap', node: <Text> </Text> };
  const all: Line[] = [...head, ...pageShown, ...after, gap, ...footer, ...nodeLines, ...tail];
  // Still too tall: the reminder goes first, then the lines at the bottom.
  const lines = all.length > height ? all.filter((l) => l.key !== 'remember') : all;
  return lines.slice(0, Math.max(0, height));
}

/** What every page ends with: the totals, live, and the verdict. */
function summaryLines(kit: LineKit, result: EstimateState['result'], nodes: number): { footer: Line[]; tail: Line[] } {
  const { theme, width } = kit;
  const est = 'estimate' in result ? result.estimate : undefined;
  const text = kit.text;
  const verdictTone: ColorRole = est?.ok ? 'ok' : 'fail';
  const verdictText = 'error' in result ? result.error : (est?.verdict ?? '');
  const verdictLines = wrap(`${theme.symbol(est?.ok ? 'ok' : 'fail')} ${theme.text(verdictText)}`, width).slice(0, 3);
  const footer: Line[] = [];
  if (est) {
    footer.push(text('required', `Required: ${amounts(est.required)}`, undefined, { bold: true }));
    footer.push(text('available', `Available: ${amounts(est.available)}${nodes > 1 ? " (the smallest node's)" : ''}`));
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

import { Box, Text, useInput, type Key } from 'ink';
import { useMemo, useRef, type ReactNode } from 'react';
import { padEnd, truncate, useTheme, width as textWidth, wrap, type ColorRole, type Theme } from '../../components/theme/index.js';
import type { Catalogue } from '../../storage/catalogue.js';
import { estimate, REMINDER, type Estimate, type Pools } from '../../storage/estimate.js';
import { formatGBAmount } from '../../storage/units.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import { splitKeys } from '../split-keys.js';
import {
  enabledVolumes,
  estimateInput,
  firstInvalid,
  FORM_PAGES,
  formReducer,
  parseSize,
  poolOptions,
  type EstimateForm,
  type FormAction,
  type FormPage,
} from './estimate-form.js';

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

const HEADINGS: Record<FormPage, string> = {
  features: 'What features do you want to use',
  pools: 'Which pool serves shared and which unshared volumes',
  sizes: 'How much storage do you want to assign to each volume',
};

/** One line of the dialogue: text cut to the width, in a tone. */
interface Line {
  key: string;
  node: ReactNode;
}

const samePools = (a: Pools, b: Pools) => a.shared === b.shared && a.unshared === b.unshared;

/** An amount in GB as the estimate prints it: "20 GB", "2.5 GB". */
export const gbAmount = (n: number) => `${formatGBAmount(n)} GB`;

/** "Shared 20 GB, Unshared 14 GB". */
export function amounts(a: { shared: number; unshared: number }): string {
  return `Shared ${gbAmount(a.shared)}, Unshared ${gbAmount(a.unshared)}`;
}

/** "short 10 GB unshared", "short 5 GB shared, 2 GB unshared", or "" when it fits. */
export function shortfallText(s: { shared: number; unshared: number }): string {
  const parts = [s.shared > 0 ? `${gbAmount(s.shared)} shared` : '', s.unshared > 0 ? `${gbAmount(s.unshared)} unshared` : ''].filter(
    Boolean,
  );
  return parts.length ? `short ${parts.join(', ')}` : '';
}

/**
 * The storage estimate, page by page as the seed asks: which features to enable; which pool
 * serves shared and which unshared volumes; the size of each volume, defaults pre-filled. Under
 * every page, live: what the enabled volumes require against what is available (the smallest
 * node's, since each node needs it), per node, and the verdict. Owns the keyboard: Enter goes
 * on, Esc goes back a page (closes on the first), Ctrl-C closes.
 */
export function EstimateDialogue(props: EstimateDialogueProps) {
  const { target, catalogue, storage, form, dispatch: send, defaults, onNextCatalogue, problem, width, height, onClose } = props;
  const theme = useTheme();

  // The form as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(form);
  live.current = form;
  const dispatch = (action: FormAction) => {
    live.current = formReducer(live.current, action);
    send(action);
  };

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
  const invalid = firstInvalid(form, volumes);
  const rowCount = (f: EstimateForm) =>
    f.page === 'features' ? catalogue.features.length : f.page === 'pools' ? 2 : enabledVolumes(catalogue, f.features).length;

  useInput((chunk, chunkKey) => {
    for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
  });

  function handle(f: EstimateForm, input: string, key: Key): void {
    if (key.ctrl && input === 'c') return onClose(false);
    if (key.escape) {
      if (f.page === FORM_PAGES[0]) return onClose(false);
      return dispatch({ type: 'back' });
    }
    const count = rowCount(f);
    const typing = f.page === 'sizes';
    if (key.upArrow || (!typing && input === 'k')) return dispatch({ type: 'focus', delta: -1, count });
    if (key.downArrow || (!typing && input === 'j') || key.tab) return dispatch({ type: 'focus', delta: 1, count });
    if (f.page === 'features') {
      const feature = catalogue.features[Math.min(f.focus, count - 1)];
      if (input === ' ' && feature) dispatch({ type: 'toggleFeature', name: feature.name });
      else if (input === 'c' && onNextCatalogue) onNextCatalogue();
      else if (key.return) dispatch({ type: 'next' });
      return;
    }
    if (f.page === 'pools') {
      const which: keyof Pools = f.focus === 0 ? 'shared' : 'unshared';
      if (key.rightArrow || input === 'l' || input === ' ') dispatch({ type: 'pool', which, options, delta: 1 });
      else if (key.leftArrow || input === 'h') dispatch({ type: 'pool', which, options, delta: -1 });
      else if (key.return) dispatch({ type: 'next' });
      return;
    }
    // Sizes: the keys are the text of the focused field.
    const shown = enabledVolumes(catalogue, f.features);
    const volume = shown[Math.min(f.focus, shown.length - 1)];
    if (key.return) {
      if (f.focus < shown.length - 1) return dispatch({ type: 'focus', delta: 1, count: shown.length });
      const bad = firstInvalid(f, shown);
      if (bad) {
        const at = shown.findIndex((v) => v.name === bad.volume);
        return dispatch({ type: 'focus', delta: at - f.focus, count: shown.length });
      }
      dispatch({ type: 'done' });
      return onClose(true);
    }
    if (!volume) return;
    if (key.backspace || key.delete) dispatch({ type: 'backspace', volume: volume.name });
    else if (key.ctrl && input === 'u') dispatch({ type: 'clear', volume: volume.name });
    else if (!key.ctrl && !key.meta && input && [...input].every((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f')) {
      dispatch({ type: 'type', volume: volume.name, text: input });
    }
  }

  const text = (key: string, s: string, tone?: ColorRole, opts: { bold?: boolean } = {}): Line => ({
    key,
    node: (
      <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} bold={opts.bold ?? false} wrap="truncate-end">
        {truncate(theme.text(s), width, theme.ellipsis)}
      </Text>
    ),
  });

  // What every page ends with: the totals, live, and the verdict.
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
  const keyLine = text('keys', keysFor(form.page, !!onNextCatalogue, theme), 'muted');

  // The page's own rows.
  const head: Line[] = [
    text(
      'title',
      `Storage estimate · ${FORM_PAGES.indexOf(form.page) + 1}/${FORM_PAGES.length} ${TITLES[form.page]} · ${target}`,
      undefined,
      { bold: true },
    ),
  ];
  const pageLines: Line[] = [];
  const after: Line[] = [];
  if (form.page === 'features') {
    head.push(text('catalogue', `Catalogue: ${catalogue.name}${catalogue.description ? ` — ${catalogue.description}` : ''}`, 'muted'));
    head.push(text('heading', HEADINGS.features, undefined, { bold: true }));
    const labelWidth = Math.min(34, Math.max(...catalogue.features.map((f) => textWidth(`Enable ${f.label}`))));
    catalogue.features.forEach((f, i) => {
      const on = form.features.includes(f.name);
      const vols = enabledVolumes(catalogue, [f.name]);
      const shared = vols.filter((v) => v.kind === 'shared').reduce((a, v) => a + (form.sizes[v.name] ?? v.defaultGB), 0);
      const unshared = vols.filter((v) => v.kind === 'unshared').reduce((a, v) => a + (form.sizes[v.name] ?? v.defaultGB), 0);
      const what = `${vols.length} volume${vols.length === 1 ? '' : 's'}: ${[shared ? `${gbAmount(shared)} shared` : '', unshared ? `${gbAmount(unshared)} unshared` : ''].filter(Boolean).join(', ')}`;
      pageLines.push(
        row(
          `f:${f.name}`,
          i === form.focus,
          `${box(on, theme)} ${padEnd(`Enable ${f.label}`, labelWidth)}  ${on ? 'Yes' : 'No '}  ${what}`,
        ),
      );
    });
  } else if (form.page === 'pools') {
    head.push(text('heading', HEADINGS.pools, undefined, { bold: true }));
    const choice = (p: string | undefined) => (theme.ascii ? `< ${p ?? 'none'} >` : `‹ ${p ?? 'none'} ›`);
    const shared = choice(form.pools.shared);
    const unshared = choice(form.pools.unshared);
    const w = Math.max(textWidth(shared), textWidth(unshared));
    pageLines.push(row('p:shared', form.focus === 0, `Shared volumes    ${padEnd(shared, w)}  replicated: every node holds a copy`));
    pageLines.push(row('p:unshared', form.focus === 1, `Unshared volumes  ${padEnd(unshared, w)}  node-local, e.g. an LVM logical volume`));
    const reason = samePools(form.pools, defaults.pools) ? defaults.reason : (est?.poolReason ?? defaults.reason);
    wrap(theme.text(reason), width)
      .slice(0, 2)
      .forEach((l, i) => after.push(text(`reason${i}`, l)));
    if (options.length === 0) after.push(text('novg', 'No volume group is known on the nodes: nothing to choose from.', 'warn'));
  } else {
    head.push(text('heading', HEADINGS.sizes, undefined, { bold: true }));
    const labelWidth = Math.min(44, Math.max(...volumes.map((v) => textWidth(`${v.label} (GB)`)), 10));
    if (!volumes.length) pageLines.push(text('none', 'No feature is enabled: go back (esc) to choose one.', 'muted'));
    volumes.forEach((v, i) => {
      const focused = i === form.focus;
      const typed = form.typed[v.name] ?? String(v.defaultGB);
      const bad = 'error' in parseSize(typed);
      const kindText = `  ${v.kind}`;
      const valueRoom = Math.max(4, width - 2 - labelWidth - 3 - kindText.length);
      const value = truncate(typed, valueRoom - 1, theme.ellipsis);
      const cursor = focused ? (theme.ascii ? '_' : '█') : '';
      pageLines.push({
        key: `v:${v.name}`,
        node: (
          <Text wrap="truncate-end" bold={focused}>
            <Text color={focused ? theme.color('accent') : undefined}>{focused ? `${theme.pointer} ` : '  '}</Text>
            {truncate(theme.text(padEnd(`${v.label} (GB)`, labelWidth)), labelWidth, theme.ellipsis)}
            {' : '}
            <Text inverse={focused && form.fresh} color={bad ? theme.color('fail') : undefined}>
              {theme.text(value)}
            </Text>
            <Text color={theme.color('accent')}>{cursor}</Text>
            {' '.repeat(Math.max(0, valueRoom - textWidth(value) - cursor.length))}
            <Text dimColor>{kindText}</Text>
          </Text>
        ),
      });
    });
    if (invalid)
      after.push(text('invalid', `${invalid.label}: ${invalid.error} (${gbAmount(form.sizes[invalid.volume] ?? 0)} counts)`, 'fail'));
  }
  if (problem) after.push(text('problem', problem, 'fail'));

  // Fit: the per-node table takes what the page leaves (the nodes that fall short first).
  const nodeRows = est && form.page !== 'features' && storage.nodes.length > 0 ? perNodeRows(est, theme) : [];
  const fixed = head.length + after.length + footer.length + tail.length + 1 /* key line */ + 2; /* gaps */
  const minNodes = nodeRows.length ? Math.min(nodeRows.length + 1, 4) : 0;
  const pageBudget = Math.max(1, Math.min(pageLines.length, height - fixed - minNodes));
  const pageStart = Math.max(0, Math.min(form.focus - Math.floor(pageBudget / 2), pageLines.length - pageBudget));
  const pageShown = pageLines.slice(pageStart, pageStart + pageBudget);
  const nodeBudget = Math.max(0, height - fixed - pageShown.length);
  const nodeLines: Line[] = [];
  if (nodeRows.length && nodeBudget >= 2) {
    const nameWidth = Math.min(Math.max(...nodeRows.map((r) => textWidth(r.node)), 4), Math.max(8, width - 40));
    const cols = (a: string, b: string, c: string, d: string) =>
      `${padEnd(truncate(a, nameWidth, theme.ellipsis), nameWidth)}  ${padEnd(b, 10)}${padEnd(c, 10)}${d}`;
    nodeLines.push(text('nodes', cols('NODE', 'SHARED', 'UNSHARED', ''), 'muted'));
    const room = nodeBudget - 1;
    const shown = nodeRows.length <= room ? nodeRows : nodeRows.slice(0, room - 1);
    for (const r of shown)
      nodeLines.push(text(`n:${r.node}`, cols(r.node, gbAmount(r.available.shared), gbAmount(r.available.unshared), r.status), r.tone));
    const rest = nodeRows.slice(shown.length);
    if (rest.length) {
      const short = rest.filter((r) => r.tone === 'fail').length;
      nodeLines.push(
        text(
          'more',
          `+${rest.length} more node${rest.length === 1 ? '' : 's'}${short ? `, ${short} short` : ', all fit'}`,
          short ? 'fail' : 'muted',
        ),
      );
    }
  }

  const lines: Line[] = [
    ...head,
    ...pageShown,
    ...after,
    { key: 'gap1', node: <Text> </Text> },
    ...footer,
    ...nodeLines,
    ...tail,
    { key: 'gap2', node: <Text> </Text> },
    keyLine,
  ];
  return (
    <Box flexDirection="column" width={width}>
      {lines.slice(0, Math.max(1, height)).map((l) => (
        <Box key={l.key}>{l.node}</Box>
      ))}
    </Box>
  );

  function row(key: string, focused: boolean, s: string): Line {
    return {
      key,
      node: (
        <Text wrap="truncate-end" inverse={focused}>
          <Text color={focused ? theme.color('accent') : undefined}>{focused ? `${theme.pointer} ` : '  '}</Text>
          {truncate(theme.text(s), width - 2, theme.ellipsis)}
        </Text>
      ),
    };
  }
}

function box(on: boolean, theme: Theme): string {
  return theme.ascii ? (on ? '[x]' : '[ ]') : on ? '◉' : '◯';
}

interface NodeRow {
  node: string;
  available: { shared: number; unshared: number };
  status: string;
  tone: ColorRole | undefined;
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

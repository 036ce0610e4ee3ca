import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { Spinner } from '../../components/spinner/index.js';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import { amounts } from '../../report/storage/estimate-words.js';
import { inventoryLines, type InventoryLine } from '../../report/storage/inventory-lines.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import type { StorageActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { clock } from '../../store/selectors.js';
import type { EstimateState } from '../../store/storage-estimate.js';
import { storageTargets, targetKey, type StorageTarget } from '../../store/storage.js';
import { useAppCommands } from '../keys/app-commands.js';
import { EstimateDialogue } from './estimate-dialogue.js';
import { STORAGE_KEYS } from './keys.js';
import { initialStorageNav, type StorageNav, storageReducer } from './storage-nav.js';
import type { HelpSection } from '../../components/help-overlay/index.js';

export interface StorageScreenProps {
  store: FleetStore;
  actions: StorageActions;
  /** The screen's keys listen (not while the help or another tab is in front). */
  active: boolean;
  height: number;
  width: number;
  /** The help overlay's groups: the tab's key tables (its registry entry). */
  help: readonly HelpSection[];
}

export function targetLabel(t: StorageTarget): string {
  return t.kind === 'local' ? 'this host' : t.name;
}

/**
 * The Storage tab: for the selected context (←/→; this host last when offered), each node's
 * volume groups and disks with what uses them, the StorageClasses and the volumes by class, and
 * the sources that could not be read; j/k scroll, r reads again. Enter (or e) opens the
 * estimate dialogue, which owns the keyboard until it closes.
 */
export function StorageScreen({ store, actions, active, height, width, help }: StorageScreenProps) {
  const theme = useTheme();
  const app = useAppCommands();
  const [nav, live] = useLiveReducer(storageReducer, initialStorageNav);
  const order = useStore(
    store,
    useShallow((s) => s.status.order),
  );
  const local = useStore(store, (s) => s.storage.local);
  const open = useStore(store, (s) => s.storage.open);
  const targets = useMemo(() => storageTargets(order, local), [order, local]);
  const index = Math.min(nav.target, Math.max(0, targets.length - 1));
  const target = targets[index];
  const key = target ? targetKey(target) : '';
  const entry = useStore(store, (s) => (key ? s.storage.inventories[key] : undefined));
  const estimate = useStore(store, (s) => (key ? s.storage.estimates[key] : undefined));

  // Each target is read when first shown; r reads it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per target shown, not per render
  useEffect(() => {
    if (target && !store.getState().storage.inventories[key]) actions.read(target);
  }, [key]);

  const lines = useMemo(() => (entry?.storage ? inventoryLines(entry.storage) : []), [entry?.storage]);
  const bottom = bottomLines(nav, entry?.storage, estimate);
  const view = Math.max(1, height - 1 - bottom.length);
  const rows = lines.length > view ? view - 1 : view;
  const max = Math.max(0, lines.length - rows);
  useKeyActions(STORAGE_KEYS, () => ({ app, nav: live, store, actions, targets, rows, max }), {
    active: active && open === undefined,
    help,
  });

  if (open) {
    return (
      <EstimateDialogue
        store={store}
        actions={actions.estimate}
        targetKey={targetKey(open)}
        target={targetLabel(open)}
        active={active}
        width={width}
        height={height}
      />
    );
  }
  if (!target) return <Text>{theme.text('No context to show: start fleetdeck with a kubeconfig (or the sandbox).')}</Text>;
  return (
    <Box flexDirection="column" width={width}>
      <Header
        targets={targets.map(targetLabel)}
        index={index}
        storage={entry?.storage}
        at={entry?.at}
        loading={entry?.loading ?? true}
        width={width}
      />
      {entry?.storage ? (
        <InventoryPage lines={lines} scroll={Math.min(nav.scroll, max)} rows={rows} width={width} />
      ) : entry?.error ? (
        <Text color={theme.color('fail')} wrap="truncate-end">
          {truncate(theme.text(`cannot read the storage of ${targetLabel(target)}: ${entry.error}`), width, theme.ellipsis)}
        </Text>
      ) : null}
      {bottom.map((b, i) => (
        <Text key={`b${i}`} color={b.tone ? theme.color(b.tone) : undefined} dimColor={b.tone === 'muted'} wrap="truncate-end">
          {truncate(theme.text(b.text), width, theme.ellipsis)}
        </Text>
      ))}
    </Box>
  );
}

/** The inventory's lines in view from `scroll`, and where they are when not all fit. */
function InventoryPage({ lines, scroll, rows, width }: { lines: readonly InventoryLine[]; scroll: number; rows: number; width: number }) {
  const theme = useTheme();
  const shown = lines.slice(scroll, scroll + rows);
  return (
    <>
      {shown.map((l, i) => (
        <InventoryRow key={scroll + i} line={l} width={width} />
      ))}
      {lines.length > rows ? (
        <Text dimColor>{theme.text(`lines ${scroll + 1}–${scroll + shown.length} of ${lines.length} ${theme.separator} j/k scroll`)}</Text>
      ) : null}
    </>
  );
}

function Header({
  targets,
  index,
  storage,
  at,
  loading,
  width,
}: {
  targets: string[];
  index: number;
  storage: ClusterStorage | undefined;
  at: number | undefined;
  loading: boolean;
  width: number;
}) {
  const theme = useTheme();
  const name = targets[index] ?? '';
  const arrows = targets.length > 1 ? (theme.ascii ? [`< `, ` >`] : ['‹ ', ' ›']) : ['', ''];
  const facts = [
    targets.length > 1 ? `${index + 1}/${targets.length}` : '',
    storage ? `${storage.nodes.length} node${storage.nodes.length === 1 ? '' : 's'}` : '',
    storage ? (storage.source === 'local' ? 'lsblk and the LVM tools' : 'from the cluster') : '',
    at !== undefined ? `read ${clock(at)}` : '',
  ].filter(Boolean);
  const text = truncate(
    theme.text(`${arrows[0]}${name}${arrows[1]}  ${facts.join(` ${theme.separator} `)}`),
    Math.max(1, width - (loading ? 12 : 0)),
    theme.ellipsis,
  );
  return (
    <Text wrap="truncate-end">
      <Text bold color={theme.color('accent')}>
        {text}
      </Text>
      {loading ? (
        <Text>
          {'  '}
          <Spinner label="reading…" />
        </Text>
      ) : null}
    </Text>
  );
}

function InventoryRow({ line, width }: { line: InventoryLine; width: number }) {
  const theme = useTheme();
  const prefix = line.warn ? `${theme.symbol('warn')} ` : '';
  return (
    <Text
      color={line.tone ? theme.color(line.tone) : undefined}
      dimColor={line.tone === 'muted'}
      bold={line.bold ?? false}
      wrap="truncate-end"
    >
      {truncate(theme.text(`${prefix}${line.text}`) || ' ', width, theme.ellipsis)}
    </Text>
  );
}

/** Under the inventory: the last key's refusal, else the estimate so far (or how to start one). */
function bottomLines(
  nav: StorageNav,
  storage: ClusterStorage | undefined,
  estimate: EstimateState | undefined,
): { text: string; tone?: ColorRole }[] {
  if (nav.notice) return [{ text: nav.notice, tone: 'warn' }];
  if (!storage) return [];
  if (!estimate) return [{ text: 'Press enter to estimate what the planned volumes need and whether they fit.', tone: 'muted' }];
  const { result } = estimate;
  if ('error' in result) return [{ text: result.error.split('\n')[0] ?? '', tone: 'fail' }];
  const est = result.estimate;
  return [{ text: `Estimate: required ${amounts(est.required)} ${est.ok ? '·' : '—'} ${est.verdict}`, tone: est.ok ? 'ok' : 'fail' }];
}

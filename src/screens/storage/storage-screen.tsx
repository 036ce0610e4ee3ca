import { Box, Text } from 'ink';
import { useEffect, useMemo, type Dispatch } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { Spinner } from '../../components/spinner/index.js';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import { defaultPools, estimate } from '../../storage/estimate.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import type { StorageActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { clock } from '../../store/selectors.js';
import { catalogueKey, storageTargets, targetKey, type LoadedCatalogue, type StorageTarget } from '../../store/storage.js';
import { amounts } from '../../report/storage/estimate-words.js';
import { EstimateDialogue } from './estimate-dialogue.js';
import { estimateInput, type EstimateForm, type FormAction } from './estimate-form.js';
import { inventoryLines, type InventoryLine } from '../../report/storage/inventory-lines.js';
import { useStorageKeys } from './use-storage-keys.js';
import type { StorageAction, StorageNav } from './use-storage-state.js';

export interface StorageScreenProps {
  store: FleetStore;
  actions: StorageActions;
  nav: StorageNav;
  dispatch: Dispatch<StorageAction>;
  /** The screen's keys listen (not while the help is shown). */
  active: boolean;
  height: number;
  width: number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

export function targetLabel(t: StorageTarget): string {
  return t.kind === 'local' ? 'this host' : t.name;
}

const NOT_LOADED: LoadedCatalogue = { error: 'the catalogue is still being read' };

/**
 * The Storage tab: for the selected context (←/→; this host last when offered), each node's
 * volume groups and disks with what uses them, the StorageClasses and the volumes by class, and
 * the sources that could not be read; j/k scroll, r reads again. Enter (or e) opens the
 * estimate dialogue, which owns the keyboard until it closes.
 */
export function StorageScreen({ store, actions, nav, dispatch, active, height, width }: StorageScreenProps) {
  const theme = useTheme();
  const order = useStore(
    store,
    useShallow((s) => s.status.order),
  );
  const local = useStore(store, (s) => s.storage.local);
  const targets = useMemo(() => storageTargets(order, local), [order, local]);
  const index = Math.min(nav.target, Math.max(0, targets.length - 1));
  const target = targets[index];
  const key = target ? targetKey(target) : '';
  const entry = useStore(store, (s) => (key ? s.storage.inventories[key] : undefined));
  const catalogues = useStore(store, (s) => s.storage.catalogues);
  const catalogueOf = (file: string | undefined) => catalogues[catalogueKey(file)] ?? NOT_LOADED;

  // Each target is read when first shown; r reads it again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per target shown, not per render
  useEffect(() => {
    if (target && !store.getState().storage.inventories[key]) actions.read(target);
  }, [key]);

  const lines = entry?.storage ? inventoryLines(entry.storage) : [];
  const form = key ? nav.forms[key] : undefined;
  const bottom = bottomLines(nav, entry?.storage, form, form ? catalogueOf(form.catalogueFile) : undefined);
  const view = Math.max(1, height - 1 - bottom.length);
  const overflow = lines.length > view;
  const rows = overflow ? view - 1 : view;
  const max = Math.max(0, lines.length - rows);
  const scroll = Math.min(nav.scroll, max);
  useStorageKeys({ store, actions, nav, dispatch, targets, target, rows, max, active });

  if (!target) {
    return <Text>{theme.text('No context to show: start fleetdeck with a kubeconfig (or the sandbox).')}</Text>;
  }
  if (nav.open && form && entry?.storage) {
    return (
      <Dialogue
        store={store}
        target={targetLabel(target)}
        targetKey={key}
        storage={entry.storage}
        form={form}
        dispatch={dispatch}
        width={width}
        height={height}
      />
    );
  }
  const shown = lines.slice(scroll, scroll + rows);
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
        <>
          {shown.map((l, i) => (
            <InventoryRow key={scroll + i} line={l} width={width} />
          ))}
          {overflow ? (
            <Text dimColor>
              {theme.text(`lines ${scroll + 1}–${scroll + shown.length} of ${lines.length} ${theme.separator} j/k scroll`)}
            </Text>
          ) : null}
        </>
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

interface DialogueProps {
  store: FleetStore;
  target: string;
  targetKey: string;
  storage: ClusterStorage;
  form: EstimateForm;
  dispatch: Dispatch<StorageAction>;
  width: number;
  height: number;
}

/** The estimate dialogue on the catalogue the form names (the default one when that one cannot be read). */
function Dialogue({ store, target, targetKey: key, storage, form, dispatch, width, height }: DialogueProps) {
  const theme = useTheme();
  const catalogues = useStore(store, (s) => s.storage.catalogues);
  const choices = useStore(
    store,
    useShallow((s) => s.storage.catalogueFiles),
  );
  const catalogueOf = (file: string | undefined) => catalogues[catalogueKey(file)] ?? NOT_LOADED;
  const c = catalogueOf(form.catalogueFile);
  const fallback = 'error' in c ? catalogueOf(undefined) : c;
  const formDispatch = (action: FormAction) => dispatch({ type: 'form', key, action });
  if ('error' in fallback) return <Text color={theme.color('fail')}>{theme.text(fallback.error)}</Text>;
  const nextCatalogue = () => {
    const at = choices.indexOf(form.catalogueFile);
    const file = choices[(at + 1) % choices.length];
    const next = catalogueOf(file);
    if ('catalogue' in next) formDispatch({ type: 'catalogue', catalogue: next.catalogue, file });
    else dispatch({ type: 'notice', text: next.error });
  };
  return (
    <EstimateDialogue
      target={target}
      catalogue={fallback.catalogue}
      storage={storage}
      form={form}
      dispatch={formDispatch}
      defaults={defaultPools(storage)}
      problem={'error' in c ? c.error : undefined}
      onNextCatalogue={choices.length > 1 ? nextCatalogue : undefined}
      width={width}
      height={height}
      onClose={() => dispatch({ type: 'close' })}
    />
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
  form: EstimateForm | undefined,
  catalogue: LoadedCatalogue | undefined,
): { text: string; tone?: ColorRole }[] {
  if (nav.notice) return [{ text: nav.notice, tone: 'warn' }];
  if (!storage) return [];
  if (!form || !catalogue || 'error' in catalogue)
    return [{ text: 'Press enter to estimate what the planned volumes need and whether they fit.', tone: 'muted' }];
  try {
    const est = estimate(catalogue.catalogue, storage, estimateInput(form, catalogue.catalogue));
    return [{ text: `Estimate: required ${amounts(est.required)} ${est.ok ? '·' : '—'} ${est.verdict}`, tone: est.ok ? 'ok' : 'fail' }];
  } catch (err) {
    return [{ text: message(err), tone: 'fail' }];
  }
}

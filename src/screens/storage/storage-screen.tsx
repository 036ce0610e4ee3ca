import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useRef, type Dispatch } from 'react';
import { Spinner } from '../../components/spinner/index.js';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import type { Catalogue } from '../../storage/catalogue.js';
import { defaultPools, estimate } from '../../storage/estimate.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import { clock } from '../../store/selectors.js';
import { splitKeys } from '../split-keys.js';
import { storageTargets, targetKey, targetLabel, type StorageDeps } from './deps.js';
import { EstimateDialogue, amounts } from './estimate-dialogue.js';
import { estimateInput, initialForm, type EstimateForm, type FormAction } from './estimate-form.js';
import { inventoryLines, type InventoryLine } from './inventory-lines.js';
import { storageReducer, type StorageAction, type StorageNav } from './use-storage-state.js';

export interface StorageScreenProps {
  deps: StorageDeps;
  nav: StorageNav;
  dispatch: Dispatch<StorageAction>;
  /** The screen's keys listen (not while the help is shown). */
  active: boolean;
  height: number;
  width: number;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

/** The catalogues offered, in the order key c walks them: the default one (undefined), then the deps' files. */
function catalogueChoices(deps: StorageDeps): (string | undefined)[] {
  return [undefined, ...(deps.catalogueFiles ?? [])];
}

/**
 * The Storage tab: for the selected context (←/→; this host last when offered), each node's
 * volume groups and disks with what uses them, the StorageClasses and the volumes by class, and
 * the sources that could not be read; j/k scroll, r reads again. Enter (or e) opens the
 * estimate dialogue, which owns the keyboard until it closes.
 */
export function StorageScreen({ deps, nav, dispatch: send, active, height, width }: StorageScreenProps) {
  const theme = useTheme();
  const targets = storageTargets(deps);
  const index = Math.min(nav.target, Math.max(0, targets.length - 1));
  const target = targets[index];
  const key = target ? targetKey(target) : '';
  const entry = key ? nav.inventories[key] : undefined;

  // The navigation as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(nav);
  live.current = nav;
  const dispatch = (action: StorageAction) => {
    live.current = storageReducer(live.current, action);
    send(action);
  };

  const read = (k: string, t: NonNullable<typeof target>) => {
    const generation = (live.current.inventories[k]?.generation ?? 0) + 1;
    dispatch({ type: 'read', key: k });
    const reading = t.kind === 'local' ? (deps.local?.() ?? Promise.reject(new Error('this host is not offered'))) : deps.inventory(t.name);
    reading.then(
      (storage) => send({ type: 'readDone', key: k, generation, storage, at: Date.now() }),
      (err: unknown) => send({ type: 'readFailed', key: k, generation, error: message(err) }),
    );
  };

  // Each target is read when first shown; r reads it again.
  useEffect(() => {
    if (target && !live.current.inventories[key]) read(key, target);
  }, [key]);

  // Catalogues are read once each (a file with a mistake: its one-line error).
  const catalogues = useRef(new Map<string, { catalogue: Catalogue } | { error: string }>());
  const catalogueOf = (file: string | undefined) => {
    const k = file ?? '';
    let c = catalogues.current.get(k);
    if (!c) {
      try {
        c = { catalogue: deps.catalogue(file) };
      } catch (err) {
        c = { error: message(err) };
      }
      catalogues.current.set(k, c);
    }
    return c;
  };

  const lines = entry?.storage ? inventoryLines(entry.storage, width) : [];
  const form = key ? nav.forms[key] : undefined;
  const bottom = bottomLines(nav, entry?.storage, form, form ? catalogueOf(form.catalogueFile) : undefined);
  const view = Math.max(1, height - 1 - bottom.length);
  const overflow = lines.length > view;
  const rows = overflow ? view - 1 : view;
  const max = Math.max(0, lines.length - rows);
  const scroll = Math.min(nav.scroll, max);

  const open = () => {
    const n = live.current;
    if (!target) return dispatch({ type: 'notice', text: 'no context to estimate for' });
    const e = n.inventories[key];
    if (!e?.storage) return dispatch({ type: 'notice', text: e?.error ? `cannot estimate: the inventory could not be read (r reads it again)` : 'the inventory is still being read' });
    const existing = n.forms[key];
    if (existing) return dispatch({ type: 'open', key });
    const c = catalogueOf(undefined);
    if ('error' in c) return dispatch({ type: 'notice', text: c.error });
    dispatch({ type: 'open', key, form: initialForm(c.catalogue, defaultPools(e.storage).pools) });
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, k] of splitKeys(chunk, chunkKey)) handle(input, k);
    },
    { isActive: active && !nav.open },
  );

  function handle(input: string, k: Key): void {
    const count = targets.length;
    if (k.rightArrow || input === 'l') dispatch({ type: 'target', delta: 1, count });
    else if (k.leftArrow || input === 'h') dispatch({ type: 'target', delta: -1, count });
    else if (input === 'j' || k.downArrow) dispatch({ type: 'scroll', delta: 1, max });
    else if (input === 'k' || k.upArrow) dispatch({ type: 'scroll', delta: -1, max });
    else if (k.pageDown || input === ' ') dispatch({ type: 'scroll', delta: rows, max });
    else if (k.pageUp) dispatch({ type: 'scroll', delta: -rows, max });
    else if (input === 'g' || k.home) dispatch({ type: 'scrollTo', line: 0, max });
    else if (input === 'G' || k.end) dispatch({ type: 'scrollTo', line: max, max });
    else if (input === 'r' && target) read(key, target);
    else if (k.return || input === 'e') open();
  }

  if (!target) {
    return <Text>{theme.text('No context to show: start fleetdeck with a kubeconfig (or the sandbox).')}</Text>;
  }

  if (nav.open && form && entry?.storage) {
    const c = catalogueOf(form.catalogueFile);
    const fallback = 'error' in c ? catalogueOf(undefined) : c;
    const choices = catalogueChoices(deps);
    const formDispatch = (action: FormAction) => send({ type: 'form', key, action });
    return 'catalogue' in fallback ? (
      <EstimateDialogue
        target={targetLabel(target)}
        catalogue={fallback.catalogue}
        storage={entry.storage}
        form={form}
        dispatch={formDispatch}
        defaults={defaultPools(entry.storage)}
        problem={'error' in c ? c.error : undefined}
        onNextCatalogue={
          choices.length > 1
            ? () => {
                const at = choices.indexOf(form.catalogueFile);
                const file = choices[(at + 1) % choices.length];
                const next = catalogueOf(file);
                if ('catalogue' in next) formDispatch({ type: 'catalogue', catalogue: next.catalogue, file });
                else send({ type: 'notice', text: next.error });
              }
            : undefined
        }
        width={width}
        height={height}
        onClose={() => send({ type: 'close' })}
      />
    ) : (
      <Text color={theme.color('fail')}>{theme.text(fallback.error)}</Text>
    );
  }

  const shown = lines.slice(scroll, scroll + rows);
  return (
    <Box flexDirection="column" width={width}>
      <Header targets={targets.map(targetLabel)} index={index} storage={entry?.storage} at={entry?.at} loading={entry?.loading ?? true} width={width} />
      {entry?.storage ? (
        <>
          {shown.map((l, i) => (
            <InventoryRow key={scroll + i} line={l} width={width} />
          ))}
          {overflow ? <Text dimColor>{theme.text(`lines ${scroll + 1}–${scroll + shown.length} of ${lines.length} ${theme.separator} j/k scroll`)}</Text> : null}
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

function Header({ targets, index, storage, at, loading, width }: { targets: string[]; index: number; storage: ClusterStorage | undefined; at: number | undefined; loading: boolean; width: number }) {
  const theme = useTheme();
  const name = targets[index] ?? '';
  const arrows = targets.length > 1 ? (theme.ascii ? [`< `, ` >`] : ['‹ ', ' ›']) : ['', ''];
  const facts = [
    targets.length > 1 ? `${index + 1}/${targets.length}` : '',
    storage ? `${storage.nodes.length} node${storage.nodes.length === 1 ? '' : 's'}` : '',
    storage ? (storage.source === 'local' ? 'lsblk and the LVM tools' : 'from the cluster') : '',
    at !== undefined ? `read ${clock(at)}` : '',
  ].filter(Boolean);
  const text = truncate(theme.text(`${arrows[0]}${name}${arrows[1]}  ${facts.join(` ${theme.separator} `)}`), Math.max(1, width - (loading ? 12 : 0)), theme.ellipsis);
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
    <Text color={line.tone ? theme.color(line.tone) : undefined} dimColor={line.tone === 'muted'} bold={line.bold ?? false} wrap="truncate-end">
      {truncate(theme.text(`${prefix}${line.text}`) || ' ', width, theme.ellipsis)}
    </Text>
  );
}

/** Under the inventory: the last key's refusal, else the estimate so far (or how to start one). */
function bottomLines(
  nav: StorageNav,
  storage: ClusterStorage | undefined,
  form: EstimateForm | undefined,
  catalogue: { catalogue: Catalogue } | { error: string } | undefined,
): { text: string; tone?: ColorRole }[] {
  if (nav.notice) return [{ text: nav.notice, tone: 'warn' }];
  if (!storage) return [];
  if (!form || !catalogue || 'error' in catalogue) return [{ text: 'Press enter to estimate what the planned volumes need and whether they fit.', tone: 'muted' }];
  try {
    const est = estimate(catalogue.catalogue, storage, estimateInput(form, catalogue.catalogue));
    return [{ text: `Estimate: required ${amounts(est.required)} ${est.ok ? '·' : '—'} ${est.verdict}`, tone: est.ok ? 'ok' : 'fail' }];
  } catch (err) {
    return [{ text: message(err), tone: 'fail' }];
  }
}

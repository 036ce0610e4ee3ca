/**
 * The Storage tab's slice: the inventory of each target (a context, or this host) as read, with
 * the pools chosen for it; the catalogues the estimate dialogue offers; and the dialogue of each
 * target (storage-estimate.ts), the open one named. Pure reducers; the storage feed is their
 * only caller.
 */
import type { Catalogue } from '../storage/catalogue.js';
import type { ClusterStorage } from '../storage/inventory.js';
import type { EstimateState, PoolDefaults } from './storage-estimate.js';
import type { FeedStatus } from './types.js';

/** What the tab shows storage for: a context of the dashboard, or the host fleetdeck runs on. */
export type StorageTarget = { kind: 'context'; name: string } | { kind: 'local' };

/** The inventory of one target: being read, read (when), or why it could not be. */
export interface InventoryEntry {
  /** Bumped at each read, so the answer of a superseded read is dropped. */
  generation: number;
  loading: boolean;
  storage?: ClusterStorage;
  /** When `storage` was read (ms since the epoch). */
  at?: number;
  /** The pools an estimate starts with for `storage`, and why. */
  defaults?: PoolDefaults;
  error?: string;
}

/** A catalogue as loaded, or its one-line error. */
export type LoadedCatalogue = { catalogue: Catalogue } | { error: string };

export interface StorageSlice {
  status: FeedStatus;
  /** This host is offered after the contexts. */
  local: boolean;
  /** By targetKey. */
  inventories: Record<string, InventoryEntry>;
  /** The catalogues in the order key c walks them: the default one (file undefined) first. */
  catalogueFiles: (string | undefined)[];
  /** By catalogueKey(file). */
  catalogues: Record<string, LoadedCatalogue>;
  /** The estimate dialogue of each target, by targetKey: kept when it closes. */
  estimates: Record<string, EstimateState>;
  /** The target whose estimate dialogue is open (it owns the keyboard). */
  open?: StorageTarget;
}

export const emptyStorage = (): StorageSlice => ({
  status: 'off',
  local: false,
  inventories: {},
  catalogueFiles: [undefined],
  catalogues: {},
  estimates: {},
});

/** A key that tells the targets apart (a context may be called anything, "local" included). */
export function targetKey(t: StorageTarget): string {
  return t.kind === 'local' ? 'local:' : `context:${t.name}`;
}

/** The targets in ←/→ order: the contexts, then this host when offered. */
export function storageTargets(contexts: readonly string[], local: boolean): StorageTarget[] {
  const out: StorageTarget[] = contexts.map((name) => ({ kind: 'context', name }));
  if (local) out.push({ kind: 'local' });
  return out;
}

export const catalogueKey = (file: string | undefined) => file ?? '';

/** A read starts: its generation, and the entry marked loading (what was read stays shown). */
export function readStarted(s: StorageSlice, key: string): { slice: StorageSlice; generation: number } {
  const previous = s.inventories[key];
  const entry: InventoryEntry = { ...previous, generation: (previous?.generation ?? 0) + 1, loading: true };
  delete entry.error;
  return { slice: { ...s, inventories: { ...s.inventories, [key]: entry } }, generation: entry.generation };
}

/** A read answered, with the pools chosen for it; dropped when a later read started since. */
export function readDone(
  s: StorageSlice,
  key: string,
  generation: number,
  read: { storage: ClusterStorage; at: number; defaults: PoolDefaults },
): StorageSlice {
  const entry = s.inventories[key];
  if (!entry || entry.generation !== generation) return s;
  return { ...s, inventories: { ...s.inventories, [key]: { generation, loading: false, ...read } } };
}

export function readFailed(s: StorageSlice, key: string, generation: number, error: string): StorageSlice {
  const entry = s.inventories[key];
  if (!entry || entry.generation !== generation) return s;
  return { ...s, inventories: { ...s.inventories, [key]: { ...entry, loading: false, error } } };
}

export function catalogueLoaded(s: StorageSlice, file: string | undefined, loaded: LoadedCatalogue): StorageSlice {
  return { ...s, catalogues: { ...s.catalogues, [catalogueKey(file)]: loaded } };
}

/** Why the estimate dialogue of a target cannot open now (undefined: it can). */
export function estimateRefusal(s: StorageSlice, key: string): string | undefined {
  const entry = s.inventories[key];
  if (!entry?.storage || !entry.defaults)
    return entry?.error ? 'cannot estimate: the inventory could not be read (r reads it again)' : 'the inventory is still being read';
  if (s.estimates[key]) return undefined;
  const c = s.catalogues[catalogueKey(undefined)];
  if (!c) return 'the catalogue is still being read';
  return 'error' in c ? c.error : undefined;
}

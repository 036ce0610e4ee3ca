import { useReducer } from 'react';
import type { ClusterStorage } from '../../storage/inventory.js';
import { formReducer, type EstimateForm, type FormAction } from './estimate-form.js';

/** The inventory of one target: being read, read (when), or why it could not be. */
export interface InventoryEntry {
  /** Bumped at each read, so the answer of a superseded read is dropped. */
  generation: number;
  loading: boolean;
  storage?: ClusterStorage;
  /** When `storage` was read (ms since the epoch). */
  at?: number;
  error?: string;
}

/** Where the operator is on the Storage tab, with what was read and chosen per target (kept while fleetdeck runs). */
export interface StorageNav {
  /** Index into the targets (contexts, then this host). */
  target: number;
  /** First line shown of the inventory page. */
  scroll: number;
  /** The estimate dialogue is open: it owns the keyboard. */
  open: boolean;
  /** By target key. */
  inventories: Record<string, InventoryEntry>;
  /** The dialogue's choices by target key. */
  forms: Record<string, EstimateForm>;
  /** One line about the last key (a refusal). */
  notice?: string;
}

export type StorageAction =
  | { type: 'target'; delta: number; count: number }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'scrollTo'; line: number; max: number }
  | { type: 'read'; key: string }
  | { type: 'readDone'; key: string; generation: number; storage: ClusterStorage; at: number }
  | { type: 'readFailed'; key: string; generation: number; error: string }
  | { type: 'open'; key: string; form?: EstimateForm }
  | { type: 'close' }
  | { type: 'form'; key: string; action: FormAction }
  | { type: 'notice'; text: string | undefined };

export const initialStorageNav: StorageNav = { target: 0, scroll: 0, open: false, inventories: {}, forms: {} };

const clamp = (i: number, max: number) => Math.max(0, Math.min(i, max));

function quiet(nav: StorageNav): StorageNav {
  if (nav.notice === undefined) return nav;
  const { notice: _gone, ...rest } = nav;
  return rest;
}

export function storageReducer(nav: StorageNav, action: StorageAction): StorageNav {
  switch (action.type) {
    case 'target': {
      if (action.count <= 0) return nav;
      const target = (((nav.target + action.delta) % action.count) + action.count) % action.count;
      return target === nav.target ? nav : { ...quiet(nav), target, scroll: 0 };
    }
    case 'scroll':
      return { ...quiet(nav), scroll: clamp(nav.scroll + action.delta, action.max) };
    case 'scrollTo':
      return { ...quiet(nav), scroll: clamp(action.line, action.max) };
    case 'read': {
      const previous = nav.inventories[action.key];
      const entry: InventoryEntry = { ...previous, generation: (previous?.generation ?? 0) + 1, loading: true };
      delete entry.error;
      return { ...quiet(nav), inventories: { ...nav.inventories, [action.key]: entry } };
    }
    case 'readDone': {
      const entry = nav.inventories[action.key];
      if (!entry || entry.generation !== action.generation) return nav;
      return { ...nav, inventories: { ...nav.inventories, [action.key]: { generation: entry.generation, loading: false, storage: action.storage, at: action.at } } };
    }
    case 'readFailed': {
      const entry = nav.inventories[action.key];
      if (!entry || entry.generation !== action.generation) return nav;
      return { ...nav, inventories: { ...nav.inventories, [action.key]: { ...entry, loading: false, error: action.error } } };
    }
    case 'open':
      return { ...quiet(nav), open: true, forms: action.form ? { ...nav.forms, [action.key]: action.form } : nav.forms };
    case 'close':
      return { ...nav, open: false };
    case 'form': {
      const form = nav.forms[action.key];
      return form ? { ...nav, forms: { ...nav.forms, [action.key]: formReducer(form, action.action) } } : nav;
    }
    case 'notice':
      return action.text ? { ...nav, notice: action.text } : quiet(nav);
  }
}

/** The tab's own views own the keyboard while the estimate dialogue is open. */
export function storageOwnsKeyboard(nav: StorageNav): boolean {
  return nav.open;
}

export function useStorageState() {
  return useReducer(storageReducer, initialStorageNav);
}

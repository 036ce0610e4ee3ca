import { useReducer } from 'react';
import { formReducer, type EstimateForm, type FormAction } from './estimate-form.js';

/** Where the operator is on the Storage tab, with what was chosen per target (kept while fleetdeck runs); what was read is in the store. */
export interface StorageNav {
  /** Index into the targets (contexts, then this host). */
  target: number;
  /** First line shown of the inventory page. */
  scroll: number;
  /** The estimate dialogue is open: it owns the keyboard. */
  open: boolean;
  /** The dialogue's choices by target key. */
  forms: Record<string, EstimateForm>;
  /** One line about the last key (a refusal). */
  notice?: string;
}

export type StorageAction =
  | { type: 'target'; delta: number; count: number }
  | { type: 'scroll'; delta: number; max: number }
  | { type: 'scrollTo'; line: number; max: number }
  /** A read was asked for: the last key's line goes. */
  | { type: 'read' }
  | { type: 'open'; key: string; form?: EstimateForm }
  | { type: 'close' }
  | { type: 'form'; key: string; action: FormAction }
  | { type: 'notice'; text: string | undefined };

export const initialStorageNav: StorageNav = { target: 0, scroll: 0, open: false, forms: {} };

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
    case 'read':
      return quiet(nav);
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

import { createContext, useContext } from 'react';
import type { HelpSection } from '../../components/help-overlay/index.js';
import { type KeyActionsResult, type KeyTable, useKeyActions } from '../../components/key-actions/index.js';
import { useAppCommands } from '../keys/app-commands.js';
import { FILTER_KEYS, type StatusKeys } from './keys.js';

/** What every Status view's keys share: the tab's navigation, the store, the actions, the names shown. */
export type StatusKeysBase = Omit<StatusKeys, 'app' | 'move' | 'logs' | 'openRow' | 'columns'>;

const BaseContext = createContext<StatusKeysBase | undefined>(undefined);
export const StatusKeysProvider = BaseContext.Provider;

/**
 * A Status view's keys: its table, with what the view adds (its cursor, its rows' logs), while
 * `active`; while a filter is typed, the filter's keys (asked for every key: "/prod⏎" arriving in
 * one chunk types the filter and keeps it).
 */
export function useStatusKeys(
  table: KeyTable<StatusKeys>,
  extra: () => Partial<Pick<StatusKeys, 'move' | 'logs' | 'openRow' | 'columns'>>,
  active: boolean,
  help?: readonly HelpSection[],
): KeyActionsResult {
  const base = useContext(BaseContext);
  const app = useAppCommands();
  return useKeyActions(
    (c) => (c.nav.get().filtering ? FILTER_KEYS : table),
    () => ({ move: () => {}, ...base!, app, ...extra() }),
    {
      active: active && base !== undefined,
      ...(help ? { help } : {}),
    },
  );
}

/** Which keys the help lists: the groups for what is on screen. */
import type { HelpSection } from '../components/help-overlay/index.js';
import { HELP_SECTIONS, ROLLOUTS_HELP_SECTIONS, STORAGE_HELP_SECTIONS } from './keymap.js';
import type { TabId } from './tabs.js';
import { isRowsView, type AppState } from './use-app-state.js';

/** The help over the fleet's nodes or pods (Status, N or P): their keys beside the global ones. */
export const FLEET_ROWS_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Fleet nodes / pods',
    keys: [
      { key: 'j k', label: 'move' },
      { key: 'g G', label: 'first / last' },
      { key: 'enter', label: 'open at the row' },
      { key: '/', label: 'filter every row' },
      { key: 's', label: 'sort: next column' },
      { key: 'S', label: 'sort: reverse' },
      { key: 'N P', label: 'nodes / pods' },
      { key: 'f', label: 'fleet checklist' },
      { key: 'c esc', label: 'contexts' },
    ],
  },
];

/** The help over the Certificates view (Status, C): its keys beside the global ones. */
export const CERTS_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Certificates',
    keys: [
      { key: 'j k', label: 'move' },
      { key: 'g G', label: 'first / last' },
      { key: 'enter', label: 'details (SANs…)' },
      { key: 'esc', label: 'close details' },
      { key: 'r', label: 'read again' },
      { key: 'f N P', label: 'other views' },
      { key: 'c esc', label: 'contexts' },
    ],
  },
];

/** The help on the Install tab: its pages' keys (the wizard, Prepare nodes, Day 2) beside the global ones. */
export const INSTALL_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Install',
    keys: [
      { key: 'enter', label: 'install wizard' },
      { key: 'p', label: 'prepare nodes' },
      { key: 'd', label: 'day 2 page' },
    ],
  },
  {
    title: 'Day 2',
    keys: [
      { key: 'j k', label: 'move' },
      { key: 'enter', label: 'plan / confirm' },
      { key: 'esc', label: 'back' },
    ],
  },
];

/** The help's groups for what is on screen. */
export function helpSections(tab: TabId, rollouts: boolean, storage: boolean, state: AppState): readonly HelpSection[] {
  if (rollouts) return ROLLOUTS_HELP_SECTIONS;
  if (storage) return STORAGE_HELP_SECTIONS;
  if (tab === 'install') return INSTALL_HELP_SECTIONS;
  if (tab === 'status' && state.detail === undefined && isRowsView(state.view)) return FLEET_ROWS_HELP_SECTIONS;
  if (tab === 'status' && state.detail === undefined && state.view === 'certs') return CERTS_HELP_SECTIONS;
  return HELP_SECTIONS;
}

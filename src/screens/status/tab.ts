import type { ScreenTab } from '../tab.js';
import {
  CERTS_KEYS,
  CONTEXTS_KEYS,
  EMPTY_KEYS,
  FILTER_KEYS,
  FLEET_KEYS,
  FLEET_ROWS_KEYS,
  INFO_KEYS,
  ROWS_KEYS,
  SECTIONS_ONLY_KEYS,
} from './keys.js';
import { APPROVALS_KEYS, DECISION_KEYS } from '../approvals/keys.js';
import { StatusTab } from './status-tab.js';

/** Status: every context side by side, live, the fleet checklist, the fleet's nodes, pods and certificates. */
export const statusTab: ScreenTab = {
  id: 'status',
  title: 'Status',
  Screen: StatusTab,
  keys: [
    CONTEXTS_KEYS,
    EMPTY_KEYS,
    FILTER_KEYS,
    FLEET_KEYS,
    FLEET_ROWS_KEYS,
    CERTS_KEYS,
    INFO_KEYS,
    ROWS_KEYS,
    SECTIONS_ONLY_KEYS,
    APPROVALS_KEYS,
    DECISION_KEYS,
  ],
};

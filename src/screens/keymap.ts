import type { KeyHint } from '../components/key-hints/index.js';
import type { HelpSection } from '../components/help-overlay/index.js';

export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: 'Everywhere',
    keys: [
      { key: '?', label: 'this help' },
      { key: 'q  ctrl-c', label: 'quit' },
      { key: 'tab', label: 'next screen' },
      { key: 'shift-tab', label: 'previous screen' },
      { key: '1-4', label: 'go to screen' },
      { key: 'esc', label: 'back / close' },
    ],
  },
  {
    title: 'Status',
    keys: [
      { key: 'j k', label: 'move' },
      { key: 'g G', label: 'first / last' },
      { key: 'enter', label: 'context details' },
      { key: '/', label: 'filter by name' },
      { key: 'esc', label: 'clear filter' },
      { key: 'f c', label: 'fleet/contexts' },
      { key: 'N P C', label: 'nodes/pods/certs' },
      { key: 'l', label: 'row logs' },
      { key: 'A', label: 'approvals (CSRs)' },
      { key: 's', label: 'start sandbox' },
    ],
  },
  {
    title: 'Context',
    keys: [
      { key: 'i', label: 'info' },
      { key: 'n', label: 'nodes' },
      { key: 'p', label: 'pods' },
      { key: 'e', label: 'events' },
      { key: '← →', label: 'section' },
      { key: 'j k', label: 'move' },
      { key: 'enter', label: 'show row' },
      { key: 'l', label: 'pod logs' },
      { key: '/', label: 'filter rows' },
      { key: 'esc', label: 'back' },
    ],
  },
];

/** The help on the Rollouts tab: its own keys beside the global ones (three groups fit 80 columns). */
export const ROLLOUTS_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Rollouts',
    keys: [
      { key: 'n', label: 'new rollout' },
      { key: 'j k', label: 'move / scroll' },
      { key: 'enter', label: 'progress' },
      { key: 'a', label: 'abort (y/n)' },
      { key: 'r', label: 'resume' },
      { key: 'l', label: 'blocked pod logs' },
      { key: 'esc', label: 'back' },
    ],
  },
  {
    title: 'New rollout',
    keys: [
      { key: 'enter', label: 'next page' },
      { key: 'esc', label: 'page back' },
      { key: 'space', label: 'select / toggle' },
      { key: '← →', label: 'change option' },
      { key: 'ctrl-c', label: 'leave' },
    ],
  },
];

/** The help on the Storage tab: its keys and the estimate dialogue's beside the global ones. */
export const STORAGE_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Storage',
    keys: [
      { key: '← →', label: 'context' },
      { key: 'j k', label: 'scroll' },
      { key: 'g G', label: 'top / bottom' },
      { key: 'r', label: 'read again' },
      { key: 'enter e', label: 'estimate' },
    ],
  },
  {
    title: 'Estimate',
    keys: [
      { key: 'enter', label: 'next page' },
      { key: 'esc', label: 'page back' },
      { key: '↑ ↓', label: 'move' },
      { key: 'space', label: 'enable feature' },
      { key: '← →', label: 'change pool' },
      { key: '0-9', label: 'size in GB' },
      { key: 'c', label: 'catalogue' },
      { key: 'ctrl-c', label: 'close' },
    ],
  },
];

/** The help over the log view: its keys beside the global ones. */
export const LOGS_HELP_SECTIONS: readonly HelpSection[] = [
  HELP_SECTIONS[0]!,
  {
    title: 'Logs',
    keys: [
      { key: 'f', label: 'follow on/off' },
      { key: 'p', label: 'previous container' },
      { key: 'c', label: 'next container' },
      { key: 'w', label: 'wrap lines' },
      { key: 't', label: 'timestamps' },
      { key: 'e', label: 'events pane' },
      { key: 's', label: 'save to a file' },
      { key: 'esc', label: 'back' },
    ],
  },
  {
    title: 'Log lines',
    keys: [
      { key: 'j k ↑ ↓', label: 'scroll' },
      { key: 'pgup pgdn', label: 'page' },
      { key: 'g G', label: 'top / follow' },
      { key: '/', label: 'search' },
      { key: 'n N', label: 'older / newer match' },
    ],
  },
];

/** What the bottom line offers in each situation. */
export type HintMode =
  | 'list'
  | 'fleet'
  | 'fleetRows'
  | 'certs'
  | 'certsExpanded'
  | 'detail'
  | 'detailRows'
  | 'expanded'
  | 'filtering'
  | 'empty'
  | 'emptySandbox'
  | 'help'
  | 'rollouts'
  | 'rolloutProgress'
  | 'rolloutNavarchos'
  | 'rolloutConfirm'
  | 'storage'
  | 'approvals'
  | 'approvalsConfirm'
  | 'detailPods'
  | 'logs'
  | 'logSearch'
  | 'placeholder';

const QUIT: KeyHint = { key: 'q', label: 'quit' };
const HELP: KeyHint = { key: '?', label: 'help' };
const TAB: KeyHint = { key: 'tab', label: 'screens' };
const SECTIONS: KeyHint = { key: 'i/n/p/e', label: 'sections' };

/** The Certificates view's keys; with the selected one shown in full, Enter or Esc close it. */
function certsHints(expanded: boolean): KeyHint[] {
  return [
    { key: 'c', label: 'contexts' },
    { key: 'j/k', label: 'move' },
    expanded ? { key: 'enter/esc', label: 'close details' } : { key: 'enter', label: 'details' },
    { key: 'r', label: 'read again' },
    HELP,
    QUIT,
    TAB,
  ];
}

export function keyHints(mode: HintMode): KeyHint[] {
  switch (mode) {
    case 'logs':
      return [
        { key: 'esc', label: 'back' },
        HELP,
        { key: 'f', label: 'follow' },
        { key: 'p', label: 'previous' },
        { key: 'c', label: 'container' },
        { key: '/', label: 'search' },
        { key: 'w', label: 'wrap' },
        { key: 't', label: 'time' },
        { key: 's', label: 'save' },
        { key: 'e', label: 'events' },
      ];
    case 'logSearch':
      return [
        { key: 'type', label: 'to search' },
        { key: 'enter', label: 'search' },
        { key: 'esc', label: 'cancel' },
      ];
    case 'list':
      return [
        HELP,
        QUIT,
        // j/k are in the help: the fleet-wide views (C among them) and the filter fit 80 columns.
        { key: 'enter', label: 'open' },
        { key: 'N/P/C', label: 'nodes/pods/certs' },
        { key: 'f', label: 'fleet' },
        { key: '/', label: 'filter' },
        TAB,
        { key: 'A', label: 'approvals' },
      ];
    case 'fleet':
      return [{ key: 'c', label: 'contexts' }, { key: 'j/k', label: 'move' }, { key: 'l', label: 'logs' }, HELP, QUIT, TAB];
    case 'fleetRows':
      return [
        { key: 'c', label: 'contexts' },
        { key: 'N/P', label: 'nodes/pods' },
        { key: 'enter', label: 'open' },
        { key: '/', label: 'filter' },
        { key: 's/S', label: 'sort' },
        { key: 'j/k', label: 'move' },
        HELP,
        QUIT,
      ];
    case 'certs':
    case 'certsExpanded':
      return certsHints(mode === 'certsExpanded');
    case 'detail':
      return [{ key: 'esc', label: 'back' }, SECTIONS, { key: 'j/k', label: 'scroll' }, HELP, QUIT, TAB];
    case 'detailRows':
    case 'detailPods':
      return [
        { key: 'esc', label: 'back' },
        SECTIONS,
        { key: 'j/k', label: 'move' },
        { key: 'enter', label: 'show' },
        ...(mode === 'detailPods' ? [{ key: 'l', label: 'logs' }] : []),
        { key: '/', label: 'filter' },
        HELP,
        QUIT,
      ];
    case 'expanded':
      return [{ key: 'enter/esc', label: 'close' }, { key: 'j/k', label: 'next row' }, SECTIONS, HELP, QUIT];
    case 'filtering':
      return [
        { key: 'type', label: 'to filter' },
        { key: 'enter', label: 'keep' },
        { key: 'esc', label: 'clear' },
        { key: 'ctrl-c', label: 'quit' },
      ];
    case 'empty':
      return [HELP, QUIT, TAB];
    case 'emptySandbox':
      return [{ key: 's', label: 'start sandbox' }, HELP, QUIT, TAB];
    case 'help':
      return [{ key: 'esc', label: 'close help' }, QUIT];
    case 'rollouts':
      return [{ key: 'n', label: 'new rollout' }, { key: 'enter', label: 'progress' }, { key: 'j/k', label: 'move' }, HELP, QUIT, TAB];
    case 'rolloutProgress':
      return [
        { key: 'esc', label: 'back' },
        { key: 'a', label: 'abort' },
        { key: 'r', label: 'resume' },
        { key: 'j/k', label: 'scroll' },
        { key: 'l', label: 'logs' },
        { key: 'n', label: 'new' },
        HELP,
        QUIT,
      ];
    case 'rolloutNavarchos':
      return [{ key: 'esc', label: 'back' }, { key: 'j/k', label: 'scroll' }, { key: 'n', label: 'new' }, HELP, QUIT, TAB];
    case 'rolloutConfirm':
      return [
        { key: 'y', label: 'abort it' },
        { key: 'n/esc', label: 'keep it running' },
      ];
    case 'storage':
      return [
        { key: 'enter', label: 'estimate' },
        { key: '←/→', label: 'context' },
        { key: 'j/k', label: 'scroll' },
        { key: 'r', label: 'refresh' },
        HELP,
        QUIT,
        TAB,
      ];
    case 'approvals':
      return [
        { key: 'y', label: 'approve' },
        { key: 'd', label: 'deny' },
        { key: 'j/k', label: 'move' },
        { key: 'esc', label: 'back' },
        QUIT,
      ];
    case 'approvalsConfirm':
      return [
        { key: 'y', label: 'yes' },
        { key: 'n/esc', label: 'no, change nothing' },
      ];
    case 'placeholder':
      return [HELP, QUIT, TAB, { key: '1-4', label: 'go to screen' }];
  }
}

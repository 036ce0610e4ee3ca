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
      { key: 'j  down', label: 'next context' },
      { key: 'k  up', label: 'previous context' },
      { key: 'g  G', label: 'first / last' },
      { key: 'enter', label: 'context details' },
      { key: '/', label: 'filter by name' },
      { key: 'esc', label: 'clear filter' },
      { key: 's', label: 'start sandbox (no contexts)' },
    ],
  },
];

/** What the bottom line offers in each situation. */
export type HintMode = 'list' | 'detail' | 'filtering' | 'empty' | 'emptySandbox' | 'help' | 'placeholder';

const QUIT: KeyHint = { key: 'q', label: 'quit' };
const HELP: KeyHint = { key: '?', label: 'help' };
const TAB: KeyHint = { key: 'tab', label: 'screens' };

export function keyHints(mode: HintMode): KeyHint[] {
  switch (mode) {
    case 'list':
      return [HELP, QUIT, TAB, { key: 'j/k', label: 'move' }, { key: 'enter', label: 'details' }, { key: '/', label: 'filter' }];
    case 'detail':
      return [{ key: 'esc', label: 'back' }, { key: 'j/k', label: 'scroll' }, HELP, QUIT, TAB];
    case 'filtering':
      return [{ key: 'type', label: 'to filter' }, { key: 'enter', label: 'keep' }, { key: 'esc', label: 'clear' }, { key: 'ctrl-c', label: 'quit' }];
    case 'empty':
      return [HELP, QUIT, TAB];
    case 'emptySandbox':
      return [{ key: 's', label: 'start sandbox' }, HELP, QUIT, TAB];
    case 'help':
      return [{ key: 'esc', label: 'close help' }, QUIT];
    case 'placeholder':
      return [HELP, QUIT, TAB, { key: '1-4', label: 'go to screen' }];
  }
}

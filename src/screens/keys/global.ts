/**
 * The keys every screen shares, declared once: views that take the whole keyboard (a wizard, the
 * log view) put the ones they keep in their own table by reference; on the others the app
 * handles them.
 */
import type { KeyAction, KeyTable } from '../../components/key-actions/index.js';
import type { WithApp } from './app-commands.js';

export const HELP: KeyAction<WithApp> = {
  keys: ['?'],
  description: 'this help',
  hint: 'help',
  shared: true,
  run: (c) => c.app.toggleHelp(),
};

export const QUIT: KeyAction<WithApp> = {
  keys: ['q', 'ctrl-c'],
  label: 'q ctrl-c',
  hintLabel: 'q',
  description: 'quit',
  shared: true,
  run: (c) => c.app.quit(),
};

/** Ctrl-C alone: where q is a letter being typed. */
export const CTRL_C_QUITS: KeyAction<WithApp> = { keys: ['ctrl-c'], description: 'quit', run: (c) => c.app.quit() };

export const NEXT_SCREEN: KeyAction<WithApp> = {
  keys: ['tab'],
  description: 'next screen',
  hint: 'screens',
  shared: true,
  run: (c) => c.app.cycleTab(1),
};

export const PREVIOUS_SCREEN: KeyAction<WithApp> = {
  keys: ['shift-tab'],
  description: 'previous screen',
  visible: false,
  shared: true,
  run: (c) => c.app.cycleTab(-1),
};

/** Digits 1–n pick screen n. */
export function goToScreen(count: number): KeyAction<WithApp> {
  return {
    keys: ['digit'],
    label: `1-${count}`,
    description: 'go to screen',
    visible: false,
    shared: true,
    run: (c, input) => c.app.goTab(Number(input) - 1),
  };
}

/** The app's own keys, when the view on screen leaves them to it. */
export function globalKeys(screens: number): KeyTable<WithApp> {
  return { title: 'Everywhere', actions: [HELP, QUIT, NEXT_SCREEN, PREVIOUS_SCREEN, goToScreen(screens)] };
}

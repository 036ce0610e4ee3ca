import type { KeyAction } from '../../components/key-actions/index.js';
import type { WithApp } from './app-commands.js';
import { HELP, NEXT_SCREEN, QUIT } from './global.js';

/** A key the app handles, placed on a view's hint line (the view's own table does not run it). */
function onAppLine<C>(a: KeyAction<WithApp>): KeyAction<C> {
  const { run: _theApps, when: _always, ...shown } = a;
  // What is left reads no context (words and keys only).
  return shown as KeyAction<C>;
}

/** ? help, q quit and tab screens where a view puts them on its line. */
export const HELP_HINT = onAppLine<unknown>(HELP);
export const QUIT_HINT = onAppLine<unknown>(QUIT);
export const SCREENS_HINT = onAppLine<unknown>(NEXT_SCREEN);

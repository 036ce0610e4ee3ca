import type { ScreenOverlay, TabScreenProps } from '../tab.js';
import { LOG_KEYS, LOG_SEARCH_KEYS } from './keys.js';
import { LogView } from './log-view.js';

function LogsOverlay({ store, actions, width, height, active }: TabScreenProps) {
  if (!actions.logs) return null;
  return <LogView store={store} actions={actions.logs} width={width} height={height} active={active} />;
}

/** The log of the pods behind a row, over whichever tab it was opened from (`l`). */
export const logsOverlay: ScreenOverlay = {
  id: 'logs',
  open: (s) => s.logs.target !== undefined,
  View: LogsOverlay,
  keys: [LOG_KEYS, LOG_SEARCH_KEYS],
};

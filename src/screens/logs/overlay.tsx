import { type KeyTable, useKeyActions } from '../../components/key-actions/index.js';
import { useAppCommands } from '../keys/app-commands.js';
import type { ScreenOverlay, TabScreenProps } from '../tab.js';
import { LogView } from './log-view.js';

const LOG_KEYS: KeyTable<unknown> = { title: 'Logs', owns: true, actions: [] };

function LogsOverlay({ store, actions, width, height, active }: TabScreenProps) {
  const app = useAppCommands();
  useKeyActions(LOG_KEYS, () => ({}), { active });
  if (!actions.logs) return null;
  return (
    <LogView
      store={store}
      actions={actions.logs}
      width={width}
      height={height + 1}
      active={active}
      onHelp={app.toggleHelp}
      onQuit={app.quit}
    />
  );
}

/** The log of the pods behind a row, over whichever tab it was opened from (`l`). */
export const logsOverlay: ScreenOverlay = {
  id: 'logs',
  open: (s) => s.logs.target !== undefined,
  View: LogsOverlay,
  keys: [LOG_KEYS],
};

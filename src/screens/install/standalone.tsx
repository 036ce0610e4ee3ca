import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { KeyBarProvider, useKeyBar } from '../../components/key-actions/index.js';
import { KeyHints } from '../../components/key-hints/index.js';
import { useTheme, wrap } from '../../components/theme/index.js';
import type { InstallActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { InstallWizard } from './wizard.js';

export interface StandaloneWizardProps {
  store: FleetStore;
  actions: InstallActions;
  width: number;
  /** Rows of the terminal it may use. */
  height: number;
  /** Left: 0 installed, 1 stopped or failed, 130 cancelled. */
  onExit: (code: number) => void;
}

/**
 * The install wizard on its own (`fleetdeck install` in a terminal), outside the dashboard: the
 * line of its keys under it, and a refused key's line above that, as the dashboard shows them.
 */
export function StandaloneWizard({ store, actions, width, height, onExit }: StandaloneWizardProps) {
  const theme = useTheme();
  const { bar, top } = useKeyBar();
  const wizard = useStore(store, (s) => s.install.wizard);
  const notice = top?.notice ? wrap(theme.text(top.notice), width) : [];
  return (
    <KeyBarProvider bar={bar}>
      <Box flexDirection="column" width={width}>
        {wizard === 'open' ? (
          <InstallWizard store={store} actions={actions} active width={width} height={height - 1 - notice.length} onExit={onExit} />
        ) : (
          <Text>{typeof wizard === 'object' ? wizard.error : 'loading the install bundle…'}</Text>
        )}
        {notice.length ? <Text color={theme.color('fail')}>{notice.join('\n')}</Text> : null}
        <KeyHints hints={top?.hints ?? []} width={width} />
      </Box>
    </KeyBarProvider>
  );
}

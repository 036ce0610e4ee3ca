import { Text } from 'ink';
import { useStore } from 'zustand';
import type { Day2Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';
import { Day2Page } from './install/day2-page.js';
import { PrepareNodesPage } from './install/prepare-nodes.js';
import { PlaceholderScreen } from './placeholder.js';
import type { AppTabs } from './use-app-tabs.js';

export interface InstallTabProps {
  store: FleetStore;
  install: AppTabs['install'];
  day2?: Day2Actions | undefined;
  readOnly: boolean;
  width: number;
  height: number;
  onQuit: () => void;
  /** The Day 2 page's ? and Tab: the app's help and tabs. */
  onHelp?: (() => void) | undefined;
  onCycleTab?: ((delta: 1 | -1) => void) | undefined;
}

/** The Install tab before the wizard opens: what it does (Enter: the wizard, p: Prepare nodes, d: Day 2), or one of those pages. */
export function InstallTab({ store, install, day2, readOnly, width, height, onQuit, onHelp, onCycleTab }: InstallTabProps) {
  const wizard = useStore(store, (s) => s.install.wizard);
  const prepare = useStore(store, (s) => s.prepare.state);
  if (install.day2Open && day2)
    return (
      <Day2Page
        store={store}
        actions={day2}
        readOnly={readOnly}
        width={width}
        height={height + 1}
        active
        onLeave={install.closeDay2}
        onQuit={onQuit}
        onHelp={onHelp}
        onCycleTab={onCycleTab}
      />
    );
  if (install.prepareOpen && prepare) return <PrepareNodesPage state={prepare} width={width} height={height} />;
  // What the wizard's loading says takes the last line.
  const status = wizard === 'loading' || typeof wizard === 'object';
  return (
    <>
      <PlaceholderScreen
        tab="install"
        width={width}
        height={height - (status ? 1 : 0)}
        readOnly={readOnly}
        installer={install.open !== undefined}
        preflight={install.prepare !== undefined}
        day2={install.day2 !== undefined}
      />
      {wizard === 'loading' ? <Text>loading the install bundle…</Text> : null}
      {typeof wizard === 'object' ? <Text wrap="truncate-end">{wizard.error}</Text> : null}
    </>
  );
}

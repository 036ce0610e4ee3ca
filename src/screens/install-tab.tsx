import { Text } from 'ink';
import { useStore } from 'zustand';
import type { FleetStore } from '../store/fleet-store.js';
import { PrepareNodesPage } from './install/prepare-nodes.js';
import { PlaceholderScreen } from './placeholder.js';
import type { AppTabs } from './use-app-tabs.js';

export interface InstallTabProps {
  store: FleetStore;
  install: AppTabs['install'];
  readOnly: boolean;
  width: number;
  height: number;
}

/** The Install tab before the wizard opens: what it does (Enter: the wizard, p: Prepare nodes), or the Prepare nodes page. */
export function InstallTab({ store, install, readOnly, width, height }: InstallTabProps) {
  const wizard = useStore(store, (s) => s.install.wizard);
  const prepare = useStore(store, (s) => s.prepare.state);
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
      />
      {wizard === 'loading' ? <Text>loading the install bundle…</Text> : null}
      {typeof wizard === 'object' ? <Text wrap="truncate-end">{wizard.error}</Text> : null}
    </>
  );
}

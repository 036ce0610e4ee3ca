import { Text } from 'ink';
import { useStore } from 'zustand';
import { useGate, useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { useAppCommands } from '../keys/app-commands.js';
import { Placeholder } from '../placeholder.js';
import type { ScreenTab, TabScreenProps } from '../tab.js';
import { DAY2_KEYS } from './day2-keys.js';
import { Day2Page } from './day2-page.js';
import { type InstallTabKeys, LANDING_KEYS, PREPARE_KEYS } from './keys.js';
import { initialInstallNav, installNavReducer } from './nav.js';
import { PrepareNodesPage } from './prepare-nodes.js';
import { InstallWizard } from './wizard.js';
import { WIZARD_KEYS } from './wizard-keys.js';

const ABOUT = {
  text: 'The guided install: it checks the prerequisites, then installs step by step, and resumes where it stopped when run again (fleetdeck install does the same in plain mode; fleetdeck uninstall reverses it).',
  steps: [
    'Prerequisites',
    'API server LoadBalancer',
    'Certificates (generated locally)',
    'Control plane',
    'Kubeconfig',
    'CRDs',
    'Agents in the workload clusters',
    'Verification',
  ],
};

/** What the tab does and what its keys start; under it, how the wizard's loading goes. */
function Landing({ store, actions, width, height }: Pick<TabScreenProps, 'store' | 'actions' | 'width' | 'height'>) {
  const { readOnly } = useGate();
  const wizard = useStore(store, (s) => s.install.wizard);
  const lines = [
    actions.install ? 'Press enter to start the install wizard.' : '',
    actions.prepare ? 'Press p to prepare nodes: the preflight checks of this host, before it joins.' : '',
    actions.day2 ? 'Press d for day 2: back up, restore, renew certificates, upgrade.' : '',
  ].filter(Boolean);
  // What the wizard's loading says takes the last line.
  const status = wizard === 'loading' ? 'loading the install bundle…' : typeof wizard === 'object' ? wizard.error : undefined;
  return (
    <>
      <Placeholder
        title="Install"
        about={ABOUT}
        width={width}
        height={height - (status ? 1 : 0)}
        note={readOnly ? 'Read-only: it will show the plan and change nothing.' : undefined}
        lines={lines}
      />
      {status ? <Text wrap="truncate-end">{status}</Text> : null}
    </>
  );
}

/** The Install tab: its landing page, or the install wizard, the Day 2 page, the Prepare nodes page over it. */
function InstallTab({ store, actions, width, height, active }: TabScreenProps) {
  const app = useAppCommands();
  const [nav, live] = useLiveReducer(installNavReducer, initialInstallNav);
  const wizard = useStore(store, (s) => s.install.wizard);
  const prepare = useStore(store, (s) => s.prepare.state);
  const wizardOpen = wizard === 'open' && actions.install !== undefined;
  const day2Open = !wizardOpen && nav.day2 && actions.day2 !== undefined;
  const prepareOpen = nav.prepare && prepare !== undefined;
  useKeyActions(
    (c: InstallTabKeys) => (c.nav.get().prepare && store.getState().prepare.state ? PREPARE_KEYS : LANDING_KEYS),
    () => ({ app, nav: live, actions }),
    { active: active && !wizardOpen && !day2Open },
  );
  if (wizardOpen && actions.install)
    return <InstallWizard store={store} actions={actions.install} active={active} width={width} height={height} />;
  if (day2Open && actions.day2) {
    const day2 = actions.day2;
    const leave = () => {
      day2.close();
      live.dispatch({ type: 'closeDay2' });
    };
    return <Day2Page store={store} actions={day2} active={active} width={width} height={height} onLeave={leave} />;
  }
  if (prepareOpen && prepare) return <PrepareNodesPage state={prepare} width={width} height={height} />;
  return <Landing store={store} actions={actions} width={width} height={height} />;
}

/** Install: the guided install, the preflight checks of a node about to join, and day 2. */
export const installTab: ScreenTab = {
  id: 'install',
  title: 'Install',
  Screen: InstallTab,
  keys: [LANDING_KEYS, PREPARE_KEYS, WIZARD_KEYS, DAY2_KEYS],
};

import { useGate } from '../../components/key-actions/index.js';
import { Placeholder } from '../placeholder.js';
import type { ScreenTab, TabScreenProps } from '../tab.js';

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

function InstallTab({ actions, width, height }: TabScreenProps) {
  const { readOnly } = useGate();
  const lines = [
    actions.install ? 'Press enter to start the install wizard.' : '',
    actions.prepare ? 'Press p to prepare nodes: the preflight checks of this host, before it joins.' : '',
    actions.day2 ? 'Press d for day 2: back up, restore, renew certificates, upgrade.' : '',
  ].filter(Boolean);
  return (
    <Placeholder
      title="Install"
      about={ABOUT}
      width={width}
      height={height}
      note={readOnly ? 'Read-only: it will show the plan and change nothing.' : undefined}
      lines={lines}
    />
  );
}

/** Install: the guided install, the preflight checks of a node about to join, and day 2. */
export const installTab: ScreenTab = { id: 'install', title: 'Install', Screen: InstallTab, keys: [] };

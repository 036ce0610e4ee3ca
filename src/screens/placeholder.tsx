import { Box, Text } from 'ink';
import { Checklist } from '../components/checklist/index.js';
import { useTheme, wrap } from '../components/theme/index.js';
import type { CheckItem } from '../checklist/checklist.js';
import type { TabId } from './tabs.js';

interface Plan {
  title: string;
  text: string;
  steps: string[];
}

const PLANS: Record<Exclude<TabId, 'status'>, Plan> = {
  install: {
    title: 'Install',
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
  },
  rollouts: {
    title: 'Rollouts',
    text: 'Coming: replace groups of nodes by priority, with live progress per node.',
    steps: ['Cordon', 'Drain (respecting PodDisruptionBudgets)', 'Wait for the replacement', 'Next node'],
  },
  storage: {
    title: 'Storage',
    text: 'Coming: what storage each node and the cluster have, what the planned stateful components need, and whether it fits.',
    steps: ['Storage per node', 'Storage classes of the cluster', 'Needs of the stateful components', 'Does it fit'],
  },
};

export interface PlaceholderScreenProps {
  tab: Exclude<TabId, 'status'>;
  width: number;
  readOnly: boolean;
  /** The install wizard can be started from here (Enter). */
  installer?: boolean;
  /** The preflight checks of this host can be run from here (p: the "Prepare nodes" page). */
  preflight?: boolean;
}

/** What a screen that is not built yet will do, with its steps as a pending checklist. */
export function PlaceholderScreen({ tab, width, readOnly, installer = false, preflight = false }: PlaceholderScreenProps) {
  const theme = useTheme();
  const plan = PLANS[tab];
  const items: CheckItem[] = plan.steps.map((label, i) => ({ id: `${tab}/${i}`, label, state: 'pending' }));
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('accent')}>
        {plan.title}
      </Text>
      {wrap(theme.text(plan.text), width).map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      {readOnly && tab !== 'storage' ? <Text dimColor>{theme.text('Read-only: it will show the plan and change nothing.')}</Text> : null}
      <Box marginTop={1}>
        <Checklist items={items} width={width} />
      </Box>
      {tab === 'install' && (installer || preflight) ? (
        <Box marginTop={1} flexDirection="column">
          {installer ? <Text>{theme.text('Press enter to start the install wizard.')}</Text> : null}
          {preflight ? <Text>{theme.text('Press p to prepare nodes: the preflight checks of this host, before it joins.')}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { Checklist } from '../components/checklist/index.js';
import { truncate, useTheme, wrap } from '../components/theme/index.js';
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
  /** Lines available: the description is cut and the steps fold ("↓ 3 more lines") to fit. */
  height: number;
  readOnly: boolean;
  /** The install wizard can be started from here (Enter). */
  installer?: boolean;
  /** The preflight checks of this host can be run from here (p: the "Prepare nodes" page). */
  preflight?: boolean;
  /** The Day 2 page can be opened from here (d). */
  day2?: boolean;
}

/** Lines of the steps kept in sight however short the screen ("↓ n more lines" the last of them). */
const MIN_STEP_LINES = 3;

/**
 * What a screen that is not built yet will do, with its steps as a pending checklist; on the
 * Install tab, what Enter and p start. The keys' lines always show; the description and the
 * steps give way in a short terminal.
 */
export function PlaceholderScreen({
  tab,
  width,
  height,
  readOnly,
  installer = false,
  preflight = false,
  day2 = false,
}: PlaceholderScreenProps) {
  const theme = useTheme();
  const plan = PLANS[tab];
  const items: CheckItem[] = plan.steps.map((label, i) => ({ id: `${tab}/${i}`, label, state: 'pending' }));
  const keys =
    tab === 'install'
      ? [
          installer ? 'Press enter to start the install wizard.' : '',
          preflight ? 'Press p to prepare nodes: the preflight checks of this host, before it joins.' : '',
          day2 ? 'Press d for day 2: back up, restore, renew certificates, upgrade.' : '',
        ]
          .filter(Boolean)
          .flatMap((line) => wrap(theme.text(line), width))
      : [];
  const readOnlyLine = readOnly && tab !== 'storage';
  // The title, the read-only line, the gap above the steps, the keys with the gap above them.
  const fixed = 1 + (readOnlyLine ? 1 : 0) + 1 + (keys.length ? keys.length + 1 : 0);
  const text = wrap(theme.text(plan.text), width);
  // The steps keep a few lines; the description gets what is left, and gives way first.
  const avail = height - fixed;
  const textRoom = avail > MIN_STEP_LINES ? Math.min(text.length, avail - MIN_STEP_LINES) : 0;
  const shownText = text.slice(0, textRoom);
  if (textRoom > 0 && shownText.length < text.length) {
    shownText[textRoom - 1] = truncate(`${shownText[textRoom - 1] ?? ''} ${text[textRoom] ?? ''}`, width, theme.ellipsis);
  }
  const stepRoom = avail - shownText.length;
  return (
    <Box flexDirection="column">
      <Text bold color={theme.color('accent')}>
        {plan.title}
      </Text>
      {shownText.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
      {readOnlyLine ? (
        <Text dimColor>{truncate(theme.text('Read-only: it will show the plan and change nothing.'), width, theme.ellipsis)}</Text>
      ) : null}
      {stepRoom > 0 ? (
        <Box marginTop={1}>
          <Checklist items={items} width={width} height={stepRoom} />
        </Box>
      ) : null}
      {keys.length ? (
        <Box marginTop={1} flexDirection="column">
          {keys.map((line, i) => (
            <Text key={i}>{line}</Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

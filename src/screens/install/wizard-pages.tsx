/** The wizard's result pages: the checks, the plan and the install's progress, fitted to the rows they have. */
import { Box, Text, useInput } from 'ink';
import { Checklist } from '../../components/checklist/index.js';
import { useTheme } from '../../components/theme/index.js';
import type { WizardChoices, WizardState } from './use-wizard-state.js';

export function NoOthers({ onContinue }: { onContinue: () => void }) {
  useInput((_input, key) => {
    if (key.return) onContinue();
  });
  return <Text>No other context in the kubeconfig: the control plane is installed without workload clusters (enter continues).</Text>;
}

export function ChecksPage({ state, ha, width, rows }: { state: WizardState['checks']; ha: boolean; width: number; rows: number }) {
  const theme = useTheme();
  if (!state?.items.length) return <Text>{theme.text('checking…')}</Text>;
  return (
    <Box flexDirection="column">
      {/* Finished rows fold their children (keeping those that need attention); if still too tall, the first lines give way. */}
      <Checklist items={state.items} width={width} height={Math.max(3, rows)} fold="children" keep="end" />
      {state.done ? (
        <Text>
          {state.blocking
            ? `Blocked: fix what failed and press r${ha ? ', or n to continue without HA' : ''}. Nothing was changed.`
            : state.warnings
              ? 'Warnings above: press enter to go on anyway.'
              : 'All checks passed.'}
        </Text>
      ) : null}
    </Box>
  );
}

function planRows(choices: WizardChoices, kubeconfigPath?: string, userKubeconfig?: string): [string, string][] {
  return [
    ['Hosting context', choices.hosting ?? '?'],
    ['Namespace', choices.namespace],
    ...(choices.workloads.length
      ? choices.workloads.map((w, i): [string, string] => [i === 0 ? 'Workload clusters' : '', `${choices.clusterNames[w] ?? w} (${w})`])
      : [['Workload clusters', 'none'] as [string, string]]),
    ['Availability', choices.ha ? `3 replicas, spread by ${choices.topologyKey}` : 'single replica'],
    ['Certificates', `valid ${choices.validityYears} years; existing ones are reused`],
    ...(kubeconfigPath ? [['Kubeconfig', kubeconfigPath] as [string, string]] : []),
    ...(userKubeconfig
      ? [['', `${choices.mergeKubeconfig ? 'and merged into' : 'not merged into'} ${userKubeconfig} (m toggles)`] as [string, string]]
      : []),
  ];
}

export function PlanPage({
  choices,
  readOnly,
  kubeconfigPath,
  userKubeconfig,
}: {
  choices: WizardChoices;
  readOnly: boolean;
  kubeconfigPath?: string;
  userKubeconfig?: string;
}) {
  return (
    <Box flexDirection="column">
      {planRows(choices, kubeconfigPath, userKubeconfig).map(([k, v], i) => (
        // Continuation rows have an empty key: the index tells them apart.
        <Text key={`${i}:${k}`} wrap="truncate-end">
          {k.padEnd(18)} {v}
        </Text>
      ))}
      <Text>{readOnly ? 'Read-only mode: the install is refused (start fleetdeck without --read-only).' : 'Press enter to install.'}</Text>
    </Box>
  );
}

export function ProgressPage({ progress, width, rows }: { progress: WizardState['progress']; width: number; rows: number }) {
  if (!progress?.items.length) return <Text>starting…</Text>;
  return (
    <Box flexDirection="column">
      <Checklist items={progress.items} width={width} height={Math.max(3, rows)} fold="children" keep="end" />
      {progress.done ? (
        <Text>
          {progress.ok
            ? 'Installed: the fleet is recorded; fleetdeck shows it live.'
            : 'Stopped: fix what the failed row says and run the install again; it continues where it stopped.'}
        </Text>
      ) : null}
    </Box>
  );
}

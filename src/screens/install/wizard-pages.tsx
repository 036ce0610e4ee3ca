/** The wizard's result pages: the checks, the plan and the install's progress, fitted to the rows they have. */
import { Box, Text } from 'ink';
import { Checklist } from '../../components/checklist/index.js';
import { FitLines } from '../../components/fit/index.js';
import { useGate } from '../../components/key-actions/index.js';
import { truncate, useTheme, wrap } from '../../components/theme/index.js';
import type { CheckItem } from '../../checklist/checklist.js';
import type { InstallChecks, InstallPlanBundle, InstallSteps } from '../../store/install.js';
import type { WizardChoices } from './use-wizard-state.js';

/** The workloads page when the kubeconfig has no other context (enter continues: the wizard's keys). */
export function NoOthers({ width }: { width: number }) {
  const theme = useTheme();
  const text = 'No other context in the kubeconfig: the control plane is installed without workload clusters (enter continues).';
  return <Text>{wrap(theme.text(text), width).join('\n')}</Text>;
}

/** A checklist over its summary line (wrapped), both within `rows`. */
function ChecklistWithSummary({
  items,
  summary,
  width,
  rows,
}: {
  items: CheckItem[];
  summary: string | undefined;
  width: number;
  rows: number;
}) {
  const theme = useTheme();
  const lines = summary ? wrap(theme.text(summary), width) : [];
  return (
    <Box flexDirection="column">
      {/* Finished rows fold their children (keeping those that need attention); if still too tall, the first lines give way. */}
      <Checklist items={items} width={width} height={Math.max(2, rows - lines.length)} fold="children" keep="end" />
      {lines.length ? <Text>{lines.join('\n')}</Text> : null}
    </Box>
  );
}

export function ChecksPage({ state, ha, width, rows }: { state: InstallChecks | undefined; ha: boolean; width: number; rows: number }) {
  const theme = useTheme();
  if (!state?.items.length) return <Text>{theme.text('checking…')}</Text>;
  const summary = !state.done
    ? undefined
    : state.blocking
      ? `Blocked: fix what failed and press r${ha ? ', or n to continue without HA' : ''}. Nothing was changed.`
      : state.warnings
        ? 'Warnings above: press enter to go on anyway.'
        : 'All checks passed.';
  return <ChecklistWithSummary items={state.items} summary={summary} width={width} rows={rows} />;
}

/** Rows of `key` with `lines`, the key on the first only. */
const keyed = (key: string, lines: string[]): [string, string][] => lines.map((l, i): [string, string] => [i === 0 ? key : '', l]);

/** The bundle's rows: name and source, and what the reference bundle is (wrapped to `width`). */
function bundleRows(bundle: InstallPlanBundle, width: number): [string, string][] {
  const note = 'not a Nova release: upstream images, kube-scheduler standing in for nova-scheduler';
  return [
    ['Bundle', `${bundle.name} (${bundle.reference ? 'built-in' : bundle.source})`],
    ...(bundle.reference ? keyed('', wrap(note, Math.max(20, width - 19))) : []),
  ];
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
  width,
  rows,
  kubeconfigPath,
  userKubeconfig,
  bundle,
}: {
  choices: WizardChoices;
  width: number;
  rows: number;
  kubeconfigPath?: string;
  userKubeconfig?: string;
  bundle?: InstallPlanBundle;
}) {
  const theme = useTheme();
  const { readOnly } = useGate();
  const outside = bundle?.notSandbox ?? [];
  const ask =
    outside.length > 0
      ? `${outside.join(', ')} ${outside.length > 1 ? 'are' : 'is'} not the fleetdeck sandbox: press y to install the reference bundle there anyway (for a Nova release, start again with --bundle DIR, its install/ directory).`
      : 'Press enter to install.';
  const press = wrap(theme.text(readOnly ? 'Read-only mode: the install is refused (start fleetdeck without --read-only).' : ask), width);
  // The bundle right under the hosting context and namespace: on a short screen the rows below give way first.
  const rows0 = planRows(choices, kubeconfigPath, userKubeconfig);
  const plan = bundle
    ? [
        ...rows0.slice(0, 2),
        ...bundleRows(bundle, width),
        ...rows0.slice(2),
        ...keyed('Images', bundle.images.length ? bundle.images : ['none']),
        ...keyed('Overlays', bundle.overlays),
      ]
    : rows0;
  return (
    <Box flexDirection="column">
      <FitLines
        lines={plan}
        height={Math.max(2, rows - press.length)}
        // Continuation rows have an empty key: the index tells them apart.
        keyOf={([k], i) => `${i}:${k}`}
        render={([k, v]) => <Text>{truncate(theme.text(`${k.padEnd(18)} ${v}`), width, theme.ellipsis)}</Text>}
        marker={({ total, start, end }) => `↓ ${total - (end - start)} more lines of the plan`}
      />
      <Text>{press.join('\n')}</Text>
    </Box>
  );
}

export function ProgressPage({ progress, width, rows }: { progress: InstallSteps | undefined; width: number; rows: number }) {
  if (!progress?.items.length) return <Text>starting…</Text>;
  const summary = !progress.done
    ? undefined
    : progress.ok
      ? 'Installed: the fleet is recorded; fleetdeck shows it live.'
      : 'Stopped: fix what the failed row says and run the install again; it continues where it stopped.';
  return <ChecklistWithSummary items={progress.items} summary={summary} width={width} rows={rows} />;
}

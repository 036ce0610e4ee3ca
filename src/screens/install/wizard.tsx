import { Box, Text } from 'ink';
import { truncate, useTheme, wrap } from '../../components/theme/index.js';
import type { CheckItem } from '../../checklist/checklist.js';
import { ChoicePage } from './choice-page.js';
import { type ChecksOutcome, type InstallOutcome, useChecksRun, useInstallRun, useWizardKeys } from './use-wizard.js';
import { useWizardState, type WizardChoices, type WizardPage, type WizardState } from './use-wizard-state.js';
import { ChecksPage, type PlanBundle, PlanPage, ProgressPage } from './wizard-pages.js';

export type { ChecksOutcome, InstallOutcome } from './use-wizard.js';
export type { PlanBundle } from './wizard-pages.js';

/** The wizard's link to the clusters: the contexts, and the checks and the install as functions of the choices. */
export interface InstallerDeps {
  /** Every context of the kubeconfig. */
  contexts: string[];
  initial?: Partial<WizardChoices>;
  /** Where the control plane's kubeconfig is written, and the user's kubeconfig it can be merged into. */
  kubeconfigPath?: string;
  userKubeconfig?: string;
  /** The bundle the install uses, and (reference bundle) the chosen contexts that are not the sandbox. */
  bundle?: (choices: WizardChoices) => PlanBundle;
  runChecks: (choices: WizardChoices, onProgress: (items: CheckItem[]) => void) => Promise<ChecksOutcome>;
  runInstall: (choices: WizardChoices, onProgress: (items: CheckItem[]) => void, signal?: AbortSignal) => Promise<InstallOutcome>;
}

export interface WizardProps extends InstallerDeps {
  readOnly: boolean;
  width: number;
  /** Rows available (the wizard never draws taller). Default 24. */
  height?: number;
  /** Leave the wizard: 0 installed, 1 stopped or failed, 130 cancelled. */
  onExit: (code: number) => void;
}

const TITLES: Record<WizardPage, string> = {
  hosting: 'Hosting cluster: where the control plane runs',
  namespace: 'Namespace of the control plane and the agents',
  workloads: 'Workload clusters to connect (space selects, enter continues)',
  names: 'Cluster name',
  ha: 'High availability',
  topology: 'Topology key that spreads the replicas',
  validity: 'Certificate validity (years)',
  checks: 'Prerequisite checks',
  plan: 'The plan',
  progress: 'Installing',
};

const PAGES: WizardPage[] = ['hosting', 'namespace', 'workloads', 'names', 'ha', 'topology', 'validity', 'checks', 'plan', 'progress'];

function keyLine(page: WizardPage, checksDone: boolean, installDone: boolean, ha: boolean, askReference: boolean): string {
  switch (page) {
    case 'hosting':
    case 'ha':
      return '↑/↓ choose · enter select · ctrl-c quit';
    case 'workloads':
      return '↑/↓ move · space select · enter continue · esc back';
    case 'checks':
      return checksDone ? `enter continue (if nothing failed) · r run again${ha ? ' · n without HA' : ''} · esc back` : 'checking…';
    case 'plan':
      return askReference ? 'y install the reference bundle · esc back · ctrl-c quit' : 'enter install · esc back · ctrl-c quit';
    case 'progress':
      return installDone ? 'q done' : 'installing… (ctrl-c stops; run the install again to continue)';
    default:
      return 'enter continue · esc back · ctrl-c quit';
  }
}

/** The body of the current page, in `rows` lines. */
function PageBody({
  state,
  props,
  rows,
  dispatch,
}: {
  state: WizardState;
  props: WizardProps;
  rows: number;
  dispatch: Parameters<typeof ChoicePage>[0]['dispatch'];
}) {
  const { width, readOnly, kubeconfigPath, userKubeconfig, bundle } = props;
  switch (state.page) {
    case 'checks':
      return <ChecksPage state={state.checks} ha={state.choices.ha} width={width} rows={rows} />;
    case 'plan':
      return (
        <PlanPage
          choices={state.choices}
          readOnly={readOnly}
          width={width}
          rows={rows}
          {...(kubeconfigPath ? { kubeconfigPath } : {})}
          {...(userKubeconfig ? { userKubeconfig } : {})}
          {...(bundle ? { bundle: bundle(state.choices) } : {})}
        />
      );
    case 'progress':
      return <ProgressPage progress={state.progress} width={width} rows={rows} />;
    default:
      return <ChoicePage state={state} contexts={props.contexts} width={width} rows={rows} dispatch={dispatch} />;
  }
}

/** Below this many rows the wizard leaves out the blank lines around its page. */
const ROWS_FOR_GAPS = 14;

/**
 * The install wizard: one page per choice (hosting context, namespace, workload contexts and
 * their names, HA and its topology key, certificate validity), the prerequisite checks live,
 * the plan to confirm, then every install step live. Esc goes back a page; Ctrl-C leaves.
 */
export function InstallWizard(props: WizardProps) {
  const { initial, readOnly, userKubeconfig, width, height = 24, runChecks, runInstall, onExit } = props;
  const theme = useTheme();
  const [state, dispatch] = useWizardState(initial);
  const { page, choices } = state;
  const askReference = page === 'plan' && (props.bundle?.(choices).notSandbox?.length ?? 0) > 0;
  useWizardKeys(state, dispatch, { readOnly, askReference, ...(userKubeconfig ? { userKubeconfig } : {}), onExit });
  useChecksRun(state, dispatch, runChecks);
  useInstallRun(state, dispatch, runInstall);

  const step = PAGES.indexOf(page) + 1;
  const currentName = choices.workloads[state.nameIndex];
  const title = `Install · ${step}/${PAGES.length} ${TITLES[page]}${page === 'names' && currentName ? ` for ${currentName}` : ''}`;
  const keys = wrap(theme.text(keyLine(page, state.checks?.done === true, state.progress?.done === true, choices.ha, askReference)), width);
  const error = state.error ? wrap(theme.text(state.error), width) : [];
  const gap = height >= ROWS_FOR_GAPS ? 1 : 0;
  const rows = Math.max(3, height - 1 - 2 * gap - keys.length - error.length);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{truncate(theme.text(title), width, theme.ellipsis)}</Text>
      <Box flexDirection="column" marginTop={gap}>
        <PageBody state={state} props={props} rows={rows} dispatch={dispatch} />
      </Box>
      {error.length ? <Text color={theme.color('fail')}>{error.join('\n')}</Text> : null}
      <Box marginTop={gap}>
        <Text dimColor>{keys.join('\n')}</Text>
      </Box>
    </Box>
  );
}

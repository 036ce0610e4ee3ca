import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { type Live, useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { truncate, useTheme, wrap } from '../../components/theme/index.js';
import type { InstallActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { type InstallSetup, type InstallSlice, planOf } from '../../store/install.js';
import { useAppCommands } from '../keys/app-commands.js';
import { ChoicePage } from './choice-page.js';
import { initialWizardState, type WizardAction, type WizardPage, type WizardState, wizardReducer } from './use-wizard-state.js';
import { WIZARD_KEYS } from './wizard-keys.js';
import { ChecksPage, PlanPage, ProgressPage } from './wizard-pages.js';

export interface WizardProps {
  store: FleetStore;
  /** The install feed's actions: the checks and the install run there, into the install slice. */
  actions: InstallActions;
  /** Its keys listen. */
  active: boolean;
  width: number;
  /** Rows available (the wizard never draws taller). */
  height: number;
  /** Left (the feed was told): 0 installed, 1 stopped or failed, 130 cancelled. */
  onExit?: (code: number) => void;
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

/** Below this many rows the wizard leaves out the blank lines around its page. */
const ROWS_FOR_GAPS = 14;

const askReference = (slice: InstallSlice, state: WizardState) =>
  state.page === 'plan' && (planOf(slice, state.choices)?.notSandbox.length ?? 0) > 0;

/** The body of the current page, in `rows` lines. */
function PageBody({
  state,
  slice,
  setup,
  width,
  rows,
  send,
}: {
  state: WizardState;
  slice: InstallSlice;
  setup: InstallSetup;
  width: number;
  rows: number;
  send: (a: WizardAction) => void;
}) {
  const { kubeconfigPath, userKubeconfig } = setup;
  const bundle = planOf(slice, state.choices);
  switch (state.page) {
    case 'checks':
      return <ChecksPage state={slice.checks} ha={state.choices.ha} width={width} rows={rows} />;
    case 'plan':
      return (
        <PlanPage
          choices={state.choices}
          width={width}
          rows={rows}
          {...(kubeconfigPath ? { kubeconfigPath } : {})}
          {...(userKubeconfig ? { userKubeconfig } : {})}
          {...(bundle ? { bundle } : {})}
        />
      );
    case 'progress':
      return <ProgressPage progress={slice.steps} width={width} rows={rows} />;
    default:
      return <ChoicePage state={state} contexts={setup.contexts} width={width} rows={rows} dispatch={send} />;
  }
}

/** The wizard's answers go through `live`; those that ask for the checks send them to the feed. */
function useWizardKeys(store: FleetStore, actions: InstallActions, live: Live<WizardState, WizardAction>, props: WizardProps) {
  const app = useAppCommands();
  const send = (a: WizardAction) => {
    const asked = live.get().checksAsked;
    live.dispatch(a);
    const now = live.get();
    if (now.checksAsked !== asked) actions.check(now.choices);
  };
  useKeyActions(
    WIZARD_KEYS,
    () => {
      const slice = store.getState().install;
      const state = live.get();
      return {
        app,
        state,
        checks: slice.checks,
        steps: slice.steps,
        askReference: askReference(slice, state),
        userKubeconfig: slice.setup?.userKubeconfig,
        noOthers: (slice.setup?.contexts ?? []).every((c) => c === state.choices.hosting),
        send,
        install: () => {
          live.dispatch({ type: 'install' });
          actions.install(live.get().choices);
        },
        exit: (code) => {
          actions.close(code);
          props.onExit?.(code);
        },
        standalone: props.onExit !== undefined,
      };
    },
    { active: props.active },
  );
  return send;
}

/**
 * The install wizard: one page per choice (hosting context, namespace, workload contexts and
 * their names, HA and its topology key, certificate validity), the prerequisite checks live,
 * the plan to confirm, then every install step live; the checks and the steps run in the
 * install feed. Esc goes back a page; Ctrl-C leaves. Its keys are on the line under it.
 */
export function InstallWizard(props: WizardProps) {
  const { store, actions, width, height } = props;
  const theme = useTheme();
  const slice = useStore(store, (s) => s.install);
  const setup = slice.setup ?? { contexts: [], initial: {} };
  const [state, live] = useLiveReducer(wizardReducer, initialWizardState(setup.initial));
  const send = useWizardKeys(store, actions, live, props);
  const { page, choices } = state;

  const step = PAGES.indexOf(page) + 1;
  const currentName = choices.workloads[state.nameIndex];
  const title = `Install · ${step}/${PAGES.length} ${TITLES[page]}${page === 'names' && currentName ? ` for ${currentName}` : ''}`;
  const error = state.error ? wrap(theme.text(state.error), width) : [];
  const gap = height >= ROWS_FOR_GAPS ? 1 : 0;
  const rows = Math.max(3, height - 1 - gap - error.length);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{truncate(theme.text(title), width, theme.ellipsis)}</Text>
      <Box flexDirection="column" marginTop={gap}>
        <PageBody state={state} slice={slice} setup={setup} width={width} rows={rows} send={send} />
      </Box>
      {error.length ? <Text color={theme.color('fail')}>{error.join('\n')}</Text> : null}
    </Box>
  );
}

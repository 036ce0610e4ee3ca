import { MultiSelect, Select, TextInput } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { useEffect, useRef } from 'react';
import { Checklist, ChecklistRow } from '../../components/checklist/index.js';
import { useTheme } from '../../components/theme/index.js';
import { checklistLines, type CheckItem } from '../../checklist/checklist.js';
import { useWizardState, type WizardChoices, type WizardPage } from './use-wizard-state.js';

export interface ChecksOutcome {
  items: CheckItem[];
  blocking: boolean;
  warnings: boolean;
}

export interface InstallOutcome {
  ok: boolean;
  steps: CheckItem[];
}

/** The wizard's link to the clusters: the contexts, and the checks and the install as functions of the choices. */
export interface InstallerDeps {
  /** Every context of the kubeconfig. */
  contexts: string[];
  initial?: Partial<WizardChoices>;
  /** Where the control plane's kubeconfig is written, and the user's kubeconfig it can be merged into. */
  kubeconfigPath?: string;
  userKubeconfig?: string;
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

/**
 * The install wizard: one page per choice (hosting context, namespace, workload contexts and
 * their names, HA and its topology key, certificate validity), the prerequisite checks live,
 * the plan to confirm, then every install step live. Esc goes back a page; Ctrl-C leaves.
 */
export function InstallWizard({ contexts, initial, kubeconfigPath, userKubeconfig, readOnly, width, height = 24, runChecks, runInstall, onExit }: WizardProps) {
  const theme = useTheme();
  const [state, dispatch] = useWizardState(initial);
  const { page, choices } = state;
  const started = useRef<string | undefined>(undefined);

  useInput((input, key) => {
    if (key.ctrl && input === 'c') return onExit(state.progress?.ok ? 0 : 130);
    if (page === 'progress') {
      if (state.progress?.done && (input === 'q' || key.return || key.escape)) onExit(state.progress.ok ? 0 : 1);
      return;
    }
    if (key.escape) return dispatch({ type: 'back' });
    if (page === 'checks' && state.checks?.done) {
      if (key.return) dispatch({ type: 'confirmChecks' });
      else if (input === 'r') dispatch({ type: 'rerunChecks' });
      else if (input === 'n' && choices.ha) dispatch({ type: 'withoutHA' });
    }
    if (page === 'plan' && key.return && !readOnly) dispatch({ type: 'install' });
    if (page === 'plan' && input === 'm' && userKubeconfig) dispatch({ type: 'toggleMerge' });
  });

  // The checks run when their page opens with no result yet (again after `r` or a change of
  // HA); the answer of a run that was superseded (the operator went back) is dropped.
  const checksRun = useRef(0);
  useEffect(() => {
    if (page !== 'checks') {
      checksRun.current++;
      return;
    }
    if (state.checks !== undefined) return;
    const run = ++checksRun.current;
    const current = () => checksRun.current === run;
    dispatch({ type: 'checks', items: [], done: false });
    runChecks(choices, (items) => current() && dispatch({ type: 'checks', items, done: false })).then(
      (r) => current() && dispatch({ type: 'checks', items: r.items, done: true, blocking: r.blocking, warnings: r.warnings }),
      (err: unknown) =>
        current() &&
        dispatch({ type: 'checks', items: [{ id: 'error', label: 'Checks could not run', state: 'fail', detail: err instanceof Error ? err.message : String(err) }], done: true, blocking: true }),
    );
  }, [page, state.checks === undefined]);

  useEffect(() => {
    if (page !== 'progress' || started.current === 'install') return;
    started.current = 'install';
    runInstall(choices, (items) => dispatch({ type: 'progress', items, done: false })).then(
      (r) => dispatch({ type: 'progress', items: r.steps, done: true, ok: r.ok }),
      (err: unknown) => dispatch({ type: 'progress', items: [{ id: 'error', label: 'Install could not run', state: 'fail', detail: err instanceof Error ? err.message : String(err) }], done: true, ok: false }),
    );
  }, [page]);

  const step = PAGES.indexOf(page) + 1;
  const others = contexts.filter((c) => c !== choices.hosting);
  const currentName = choices.workloads[state.nameIndex];

  return (
    <Box flexDirection="column" width={width}>
      <Text bold>
        Install · {step}/{PAGES.length} {theme.text(TITLES[page])}
        {page === 'names' && currentName ? ` for ${currentName}` : ''}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {page === 'hosting' ? (
          <Select
            // The current choice first: Select reports a choice only when it differs from its value.
            options={firstOf(contexts, choices.hosting).map((c) => ({ label: c, value: c }))}
            visibleOptionCount={10}
            onChange={(context) => dispatch({ type: 'hosting', context })}
          />
        ) : page === 'namespace' ? (
          <TextInput key="namespace" defaultValue={choices.namespace} onSubmit={(value) => dispatch({ type: 'namespace', value: value.trim() })} />
        ) : page === 'workloads' ? (
          others.length ? (
            <MultiSelect
              options={others.map((c) => ({ label: c, value: c }))}
              defaultValue={choices.workloads}
              visibleOptionCount={10}
              onSubmit={(contexts) => dispatch({ type: 'workloads', contexts })}
            />
          ) : (
            <NoOthers onContinue={() => dispatch({ type: 'workloads', contexts: [] })} />
          )
        ) : page === 'names' && currentName ? (
          <TextInput key={`name:${currentName}`} defaultValue={choices.clusterNames[currentName] ?? currentName} onSubmit={(value) => dispatch({ type: 'clusterName', value: value.trim() })} />
        ) : page === 'ha' ? (
          <Select
            options={firstOf(
              [
                { label: 'Highly available: 3 replicas of each component, spread by a topology key', value: 'ha' },
                { label: 'Single replica of each component', value: 'single' },
              ],
              choices.ha ? 'ha' : 'single',
            )}
            onChange={(v) => dispatch({ type: 'ha', ha: v === 'ha' })}
          />
        ) : page === 'topology' ? (
          <TextInput key="topology" defaultValue={choices.topologyKey} onSubmit={(value) => dispatch({ type: 'topologyKey', value: value.trim() })} />
        ) : page === 'validity' ? (
          <TextInput key="validity" defaultValue={String(choices.validityYears)} onSubmit={(value) => dispatch({ type: 'validity', value: value.trim() })} />
        ) : page === 'checks' ? (
          <ChecksPage state={state.checks} ha={choices.ha} width={width} rows={height - 6} />
        ) : page === 'plan' ? (
          <PlanPage choices={choices} readOnly={readOnly} {...(kubeconfigPath ? { kubeconfigPath } : {})} {...(userKubeconfig ? { userKubeconfig } : {})} />
        ) : page === 'progress' ? (
          <ProgressPage progress={state.progress} width={width} rows={height - 6} />
        ) : null}
      </Box>
      {state.error ? <Text color={theme.color('fail')}>{theme.text(state.error)}</Text> : null}
      <Box marginTop={1}>
        <Text dimColor>{theme.text(keyLine(page, state.checks?.done === true, state.progress?.done === true, choices.ha))}</Text>
      </Box>
    </Box>
  );
}

/** `items` with `first` (an item, or the item whose value it is) moved to the front. */
function firstOf<T extends string | { value: string }>(items: T[], first: string | undefined): T[] {
  const is = (x: T) => (typeof x === 'string' ? x : x.value) === first;
  return [...items.filter(is), ...items.filter((x) => !is(x))];
}

function keyLine(page: WizardPage, checksDone: boolean, installDone: boolean, ha: boolean): string {
  switch (page) {
    case 'hosting':
    case 'ha':
      return '↑/↓ choose · enter select · ctrl-c quit';
    case 'workloads':
      return '↑/↓ move · space select · enter continue · esc back';
    case 'checks':
      return checksDone ? `enter continue (if nothing failed) · r run again${ha ? ' · n without HA' : ''} · esc back` : 'checking…';
    case 'plan':
      return 'enter install · esc back · ctrl-c quit';
    case 'progress':
      return installDone ? 'q done' : 'installing… (ctrl-c stops; running the install again continues where it stopped)';
    default:
      return 'enter continue · esc back · ctrl-c quit';
  }
}

function NoOthers({ onContinue }: { onContinue: () => void }) {
  useInput((_input, key) => {
    if (key.return) onContinue();
  });
  return <Text>No other context in the kubeconfig: the control plane is installed without workload clusters (enter continues).</Text>;
}

function ChecksPage({ state, ha, width, rows }: { state: { items: CheckItem[]; done: boolean; blocking: boolean; warnings: boolean } | undefined; ha: boolean; width: number; rows: number }) {
  const theme = useTheme();
  if (!state?.items.length) return <Text>{theme.text('checking…')}</Text>;
  return (
    <Box flexDirection="column">
      <FittedChecklist items={state.items} width={width} rows={rows} />
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

function PlanPage({ choices, readOnly, kubeconfigPath, userKubeconfig }: { choices: WizardChoices; readOnly: boolean; kubeconfigPath?: string; userKubeconfig?: string }) {
  const rows: [string, string][] = [
    ['Hosting context', choices.hosting ?? '?'],
    ['Namespace', choices.namespace],
    ...(choices.workloads.length
      ? choices.workloads.map((w, i): [string, string] => [i === 0 ? 'Workload clusters' : '', `${choices.clusterNames[w] ?? w} (${w})`])
      : [['Workload clusters', 'none'] as [string, string]]),
    ['Availability', choices.ha ? `3 replicas, spread by ${choices.topologyKey}` : 'single replica'],
    ['Certificates', `valid ${choices.validityYears} years; existing ones are reused`],
    ...(kubeconfigPath ? [['Kubeconfig', kubeconfigPath] as [string, string]] : []),
    ...(userKubeconfig ? [['', `${choices.mergeKubeconfig ? 'and merged into' : 'not merged into'} ${userKubeconfig} (m toggles)`] as [string, string]] : []),
  ];
  return (
    <Box flexDirection="column">
      {rows.map(([k, v], i) => (
        <Text key={`${i}:${k}`} wrap="truncate-end">
          {k.padEnd(18)} {v}
        </Text>
      ))}
      <Text>{readOnly ? 'Read-only mode: the install is refused (start fleetdeck without --read-only).' : 'Press enter to install.'}</Text>
    </Box>
  );
}

function ProgressPage({ progress, width, rows }: { progress: { items: CheckItem[]; done: boolean; ok: boolean } | undefined; width: number; rows: number }) {
  if (!progress?.items.length) return <Text>starting…</Text>;
  return (
    <Box flexDirection="column">
      <FittedChecklist items={progress.items} width={width} rows={rows} />
      {progress.done ? <Text>{progress.ok ? 'Installed: the fleet is recorded; fleetdeck shows it live.' : 'Stopped: fix what the failed row says and run the install again; it continues where it stopped.'}</Text> : null}
    </Box>
  );
}

/** A finished row's children are folded away unless one of them needs attention. */
function fold(items: readonly CheckItem[]): CheckItem[] {
  return items.map((i) => {
    if (!i.children?.length) return i;
    const attention = i.children.filter((c) => c.state === 'warn' || c.state === 'fail' || c.state === 'running');
    const children = i.state === 'ok' ? attention : i.children;
    return { ...i, children: fold(children) };
  });
}

/**
 * The checklist within `rows` lines: finished rows fold their children (keeping those that
 * need attention); if it is still too tall, the first lines give way to a "↑ n more" line, so
 * the running and the last rows stay in sight.
 */
function FittedChecklist({ items, width, rows }: { items: readonly CheckItem[]; width: number; rows: number }) {
  const theme = useTheme();
  const folded = fold(items);
  const lines = checklistLines(folded);
  const budget = Math.max(3, rows);
  if (lines.length <= budget) return <Checklist items={folded} width={width} />;
  const hidden = lines.length - (budget - 1);
  return (
    <Box flexDirection="column">
      <Text dimColor>{theme.text(`↑ ${hidden} more line${hidden === 1 ? '' : 's'} above`)}</Text>
      {lines.slice(hidden).map((line) => (
        <ChecklistRow key={`${line.item.id}:${line.kind}:${line.depth}`} line={line} width={width} />
      ))}
    </Box>
  );
}

import { MultiSelect, Select, TextInput } from '@inkjs/ui';
import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useRef } from 'react';
import { ChecklistRow } from '../../../components/checklist/index.js';
import { padEnd, truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import type { NodeRolloutRequest } from '../../../kube/navarchos.js';
import type { Plan } from '../../../rollout/plan.js';
import type { RolloutDryRun } from '../../../rollout/runner/dry-run.js';
import type { PlanNode, RolloutSpec } from '../../../rollout/types.js';
import { checklistLines } from '../../../checklist/checklist.js';
import { planItems } from './plan-items.js';
import { newRolloutName, nodeRolloutFrom, specFrom } from './spec.js';
import { OPTION_COUNT, pagesFor, selectorMatchesOf, selectorPriorityOf, useNewRolloutState, type NewRolloutPage, type NewRolloutState } from './use-new-rollout-state.js';

/** What confirming starts: a rollout fleetdeck runs, or a NodeRollout for the Navarchos controller. */
export type NewRolloutRequest = { kind: 'fleetdeck'; spec: RolloutSpec } | { kind: 'navarchos'; context: string; request: NodeRolloutRequest };

export interface NewRolloutWizardProps {
  /** The dashboard's contexts. */
  contexts: readonly string[];
  /** Preselected context (the one of the selected row). */
  initialContext?: string | undefined;
  /** Whether the context runs the Navarchos controller. */
  navarchosIn: (context: string) => boolean;
  /** Names of the fleetdeck rollouts of the context (a new name avoids them). */
  takenNames: (context: string) => string[];
  listNodes: (context: string) => Promise<PlanNode[]>;
  /** The dry run of `fleetdeck rollout create` (pods classified, room per batch). */
  dryRun: (spec: RolloutSpec, plan: Plan) => Promise<RolloutDryRun>;
  /** Start it; resolves with the name of what was created (rejects with why not). */
  onConfirm: (request: NewRolloutRequest) => Promise<string>;
  readOnly: boolean;
  width: number;
  /** Rows available (the wizard never draws taller). */
  height: number;
  /** Leave: with the context and name of what was started, or nothing (cancelled). */
  onExit: (started?: { context: string; kind: 'fleetdeck' | 'navarchos'; name: string }) => void;
}

const TITLES: Record<NewRolloutPage, string> = {
  context: 'Context: the cluster whose nodes are replaced',
  selectors: 'Nodes by label selector',
  selectorPriority: 'Priority of the selector',
  nodes: 'Nodes by name',
  priorities: 'Priority of each node picked by name',
  options: 'How each node is replaced',
  plan: 'The plan and the dry run',
};

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * A new rollout, page by page: the context; nodes by label selector (the matches shown as it is
 * typed) and by name, each with a priority; how nodes are replaced (fleetdeck's runner only);
 * then the resolved order and the dry run of every node's pods with the room check, to
 * confirm. Owns the keyboard; Esc goes back a page, Ctrl-C leaves.
 */
export function NewRolloutWizard(props: NewRolloutWizardProps) {
  const { contexts, initialContext, navarchosIn, takenNames, listNodes, dryRun, onConfirm, readOnly, width, height, onExit } = props;
  const theme = useTheme();
  const [state, dispatch] = useNewRolloutState(initialContext);
  const { page } = state;
  const pages = pagesFor(state.navarchos);
  const step = Math.max(1, pages.indexOf(page === 'selectorPriority' ? 'selectors' : page) + 1);

  // The nodes of the chosen context, listed once per context.
  useEffect(() => {
    const context = state.context;
    if (!context || page === 'context' || state.nodes !== undefined || state.nodesError !== undefined) return;
    let current = true;
    listNodes(context).then(
      (nodes) => current && dispatch({ type: 'nodes', nodes }),
      (err: unknown) => current && dispatch({ type: 'nodesFailed', error: message(err) }),
    );
    return () => {
      current = false;
    };
  }, [state.context, page === 'context', state.nodes === undefined, state.nodesError]);

  // The name is chosen with the plan, so what is shown is what is created.
  const name = useMemo(() => (state.context ? newRolloutName(takenNames(state.context)) : ''), [state.plan, state.context]);

  // The dry run, when the plan page opens with a plan and no result yet; a superseded run's answer is dropped.
  const dryRunGeneration = useRef(0);
  useEffect(() => {
    if (page !== 'plan') {
      dryRunGeneration.current++;
      return;
    }
    if (!state.plan || state.dryRun !== undefined || !state.context) return;
    const run = ++dryRunGeneration.current;
    const current = () => dryRunGeneration.current === run;
    dispatch({ type: 'dryRun', done: false });
    dryRun(specFrom(state, name), state.plan).then(
      (result) => current() && dispatch({ type: 'dryRun', done: true, result }),
      (err: unknown) => current() && dispatch({ type: 'dryRun', done: true, error: message(err) }),
    );
  }, [page, state.plan, state.dryRun === undefined]);

  const verdict = state.plan ? planItems(state.plan, state.dryRun, state.navarchos) : undefined;
  const planLines = verdict ? checklistLines(verdict.items) : [];
  const planBudget = Math.max(3, height - 10);
  const maxScroll = Math.max(0, planLines.length - planBudget);

  const confirm = () => {
    if (readOnly || state.starting || !state.context || !state.plan || !verdict?.ready) return;
    if (verdict.refused.length) return;
    const context = state.context;
    const request: NewRolloutRequest = state.navarchos ? { kind: 'navarchos', context, request: nodeRolloutFrom(state) } : { kind: 'fleetdeck', spec: specFrom(state, name) };
    dispatch({ type: 'starting' });
    onConfirm(request).then(
      (created) => onExit({ context, kind: request.kind, name: created }),
      (err: unknown) => dispatch({ type: 'startFailed', error: message(err) }),
    );
  };

  useInput((input, key) => {
    if (key.ctrl && input === 'c') return onExit();
    if (key.escape) {
      if (page === 'context') return onExit();
      return dispatch({ type: 'back' });
    }
    if (page === 'priorities') {
      if (key.upArrow || input === 'k') dispatch({ type: 'focus', delta: -1 });
      else if (key.downArrow || input === 'j') dispatch({ type: 'focus', delta: 1 });
      else if (/^[0-9]$/.test(input)) dispatch({ type: 'priorityDigit', digit: Number(input) });
      else if (key.backspace || key.delete) dispatch({ type: 'priorityBackspace' });
      else if (key.return) dispatch({ type: 'priorities' });
    } else if (page === 'options') {
      if (key.upArrow || input === 'k') dispatch({ type: 'focus', delta: -1 });
      else if (key.downArrow || input === 'j') dispatch({ type: 'focus', delta: 1 });
      else if (key.leftArrow || input === 'h') dispatch({ type: 'optionChange', delta: -1 });
      else if (key.rightArrow || input === 'l') dispatch({ type: 'optionChange', delta: 1 });
      else if (input === ' ') dispatch({ type: 'optionToggle' });
      else if (/^[0-9]$/.test(input)) dispatch({ type: 'maxUnavailableDigit', digit: Number(input) });
      else if (key.return) dispatch({ type: 'options' });
    } else if (page === 'plan') {
      if (key.downArrow || input === 'j') dispatch({ type: 'scroll', delta: 1, max: maxScroll });
      else if (key.upArrow || input === 'k') dispatch({ type: 'scroll', delta: -1, max: maxScroll });
      else if (key.pageDown) dispatch({ type: 'scroll', delta: planBudget, max: maxScroll });
      else if (key.pageUp) dispatch({ type: 'scroll', delta: -planBudget, max: maxScroll });
      else if (key.return) confirm();
    }
  });

  const line = (text: string, tone?: ColorRole, key?: string) => (
    <Text key={key} color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );

  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        {truncate(theme.text(`New rollout · ${step}/${pages.length} ${TITLES[page]}${state.context && page !== 'context' ? ` · ${state.context}` : ''}`), width, theme.ellipsis)}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {page === 'context' ? (
          <Select
            options={firstOf([...contexts], state.context).map((c) => ({ label: navarchosIn(c) ? `${c}  (Navarchos: creates a NodeRollout)` : c, value: c }))}
            visibleOptionCount={Math.max(3, Math.min(10, height - 6))}
            onChange={(context) => dispatch({ type: 'context', context, navarchos: navarchosIn(context) })}
          />
        ) : page === 'selectors' ? (
          <SelectorsPage state={state} width={width} rows={height - 6} onDraft={(text) => dispatch({ type: 'draft', text })} onSubmit={(text) => dispatch({ type: 'selector', text })} />
        ) : page === 'selectorPriority' ? (
          <Box flexDirection="column">
            {line(`Selector: ${state.draft}`)}
            <MatchLine state={state} selector={state.draft} width={width} />
            <Box>
              <Text>Priority: </Text>
              <TextInput
                key={`priority:${state.draft}`}
                defaultValue={String(state.selectors.find((s) => s.selector === state.draft)?.priority ?? 10)}
                onSubmit={(text) => dispatch({ type: 'selectorPriority', text })}
              />
            </Box>
            {line('Higher priorities are replaced first; equal ones in any order. Empty: leave this selector out.', 'muted')}
          </Box>
        ) : page === 'nodes' ? (
          <NodesPage state={state} height={height} width={width} onSubmit={(names) => dispatch({ type: 'pickNodes', names })} />
        ) : page === 'priorities' ? (
          <PrioritiesPage state={state} height={height} width={width} />
        ) : page === 'options' ? (
          <OptionsPage state={state} width={width} />
        ) : (
          <PlanPage state={state} name={name} lines={planLines} budget={planBudget} width={width} readOnly={readOnly} verdict={verdict} />
        )}
      </Box>
      {state.error ? line(state.error, 'fail') : null}
      <Box marginTop={1}>{line(keyLine(page, state, readOnly), 'muted')}</Box>
    </Box>
  );
}

function keyLine(page: NewRolloutPage, state: NewRolloutState, readOnly: boolean): string {
  switch (page) {
    case 'context':
      return '↑/↓ choose · enter select · esc cancel';
    case 'selectors':
      return 'type a selector · enter add it · enter on an empty line continues · esc back';
    case 'selectorPriority':
      return 'enter keep · esc back';
    case 'nodes':
      return '↑/↓ move · space select · enter continue · esc back';
    case 'priorities':
      return '↑/↓ node · type digits · backspace · enter continue · esc back';
    case 'options':
      return '↑/↓ option · ←/→ change · space toggle · enter continue · esc back';
    case 'plan':
      if (state.starting) return 'starting…';
      return readOnly ? 'j/k scroll · esc back · ctrl-c leave' : `enter ${state.navarchos ? 'create the NodeRollout' : 'start the rollout'} · j/k scroll · esc back · ctrl-c leave`;
  }
}

/** `items` with `first` moved to the front (Select reports a choice only when it differs from its value). */
function firstOf(items: string[], first: string | undefined): string[] {
  return first && items.includes(first) ? [first, ...items.filter((x) => x !== first)] : items;
}

function MatchLine({ state, selector, width }: { state: NewRolloutState; selector: string; width: number }) {
  const theme = useTheme();
  let text: string;
  let tone: ColorRole | undefined;
  if (state.nodesError) {
    text = `cannot list the nodes: ${state.nodesError}`;
    tone = 'fail';
  } else if (!state.nodes) {
    text = 'listing the nodes…';
    tone = 'muted';
  } else if (selector.trim() === '') {
    text = `${state.nodes.length} node${state.nodes.length === 1 ? '' : 's'} in the cluster`;
    tone = 'muted';
  } else {
    const m = selectorMatchesOf(selector.trim(), state.nodes);
    if ('error' in m) {
      text = m.error;
      tone = 'warn';
    } else {
      const few = m.names.slice(0, 6).join(', ') + (m.names.length > 6 ? ', …' : '');
      text = `matches ${m.names.length} of ${state.nodes.length} node${state.nodes.length === 1 ? '' : 's'}${m.names.length ? `: ${few}` : ''}`;
      tone = m.names.length ? 'ok' : 'warn';
    }
  }
  return (
    <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );
}

function SelectorsPage({ state, width, rows, onDraft, onSubmit }: { state: NewRolloutState; width: number; rows: number; onDraft: (t: string) => void; onSubmit: (t: string) => void }) {
  const theme = useTheme();
  const shown = state.selectors.slice(-Math.max(1, rows - 4));
  return (
    <Box flexDirection="column">
      {state.selectors.length ? (
        <>
          <Text dimColor>{theme.text(`Selectors so far (${state.selectors.length}):`)}</Text>
          {shown.map((s) => (
            <Text key={s.selector} wrap="truncate-end">
              {truncate(theme.text(`  ${s.selector}  priority ${s.priority}`), width, theme.ellipsis)}
            </Text>
          ))}
        </>
      ) : (
        <Text dimColor wrap="truncate-end">
          {truncate(theme.text('kubectl syntax, e.g. kubernetes.io/role=worker or topology.kubernetes.io/zone in (zone-a,zone-b)'), width, theme.ellipsis)}
        </Text>
      )}
      <Box>
        <Text>Selector: </Text>
        <TextInput key={`selector:${state.selectors.length}:${state.selectors.map((s) => s.priority).join(',')}`} defaultValue={state.draft} onChange={onDraft} onSubmit={onSubmit} />
      </Box>
      <MatchLine state={state} selector={state.draft} width={width} />
    </Box>
  );
}

function NodesPage({ state, height, width, onSubmit }: { state: NewRolloutState; height: number; width: number; onSubmit: (names: string[]) => void }) {
  const theme = useTheme();
  if (state.nodesError) return <Text color={theme.color('fail')}>{theme.text(`cannot list the nodes: ${state.nodesError}`)}</Text>;
  if (!state.nodes) return <Text dimColor>listing the nodes…</Text>;
  const nameWidth = Math.min(40, Math.max(...state.nodes.map((n) => n.name.length), 4));
  const options = state.nodes.map((n) => {
    const fromSelector = selectorPriorityOf(n, state.selectors);
    const notes = [
      n.labels['topology.kubernetes.io/zone'] ?? '',
      n.ready ? '' : 'NotReady',
      n.unschedulable ? 'cordoned' : '',
      fromSelector !== undefined ? `selected by a selector, priority ${fromSelector}` : '',
    ].filter(Boolean);
    return { label: truncate(theme.text(`${padEnd(n.name, nameWidth)}  ${notes.join(' · ')}`), Math.max(10, width - 6), theme.ellipsis), value: n.name };
  });
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {truncate(theme.text(state.selectors.length ? 'Also by name (optional: a name\'s priority overrides its selector\'s):' : 'Pick the nodes to replace:'), width, theme.ellipsis)}
      </Text>
      <MultiSelect options={options} defaultValue={state.names.map((n) => n.name)} visibleOptionCount={Math.max(3, Math.min(12, height - 8))} onSubmit={onSubmit} />
    </Box>
  );
}

function PrioritiesPage({ state, height, width }: { state: NewRolloutState; height: number; width: number }) {
  const theme = useTheme();
  const budget = Math.max(3, height - 8);
  const start = Math.max(0, Math.min(state.focus - Math.floor(budget / 2), state.names.length - budget));
  const nameWidth = Math.min(40, Math.max(...state.names.map((n) => n.name.length), 4));
  return (
    <Box flexDirection="column">
      {state.names.slice(start, start + budget).map((n, i) => {
        const focused = start + i === state.focus;
        return (
          <Text key={n.name} inverse={focused} wrap="truncate-end">
            {truncate(theme.text(`${focused ? theme.pointer : ' '} ${padEnd(n.name, nameWidth)}  priority ${n.priority}`), width, theme.ellipsis)}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {truncate(theme.text(`${state.names.length} node${state.names.length === 1 ? '' : 's'} · higher priorities first; a name's priority overrides a selector's`), width, theme.ellipsis)}
      </Text>
    </Box>
  );
}

const REPLACE_HELP: Record<string, string> = {
  wait: 'wait for a new Ready node to replace it',
  'delete-node': 'delete the Node object once drained',
  uncordon: 'uncordon it (in-place maintenance)',
};

function OptionsPage({ state, width }: { state: NewRolloutState; width: number }) {
  const theme = useTheme();
  const box = (on: boolean) => (theme.ascii ? (on ? '[x]' : '[ ]') : on ? '◉' : '◯');
  const rows: [string, string, string][] = [
    ['Replacement', `‹ ${state.replace} ›`, REPLACE_HELP[state.replace] ?? ''],
    ['Max unavailable', `‹ ${state.maxUnavailable} ›`, 'nodes at once, within a priority'],
    ['--force', box(state.force), 'evict pods no controller recreates'],
    ['--delete-emptydir-data', box(state.deleteEmptyDirData), 'evict pods with emptyDir (data lost)'],
  ];
  return (
    <Box flexDirection="column">
      {rows.slice(0, OPTION_COUNT).map(([label, value, help], i) => {
        const focused = i === state.focus;
        return (
          <Text key={label} wrap="truncate-end" inverse={focused}>
            {truncate(theme.text(`${focused ? theme.pointer : ' '} ${padEnd(label, 23)} ${padEnd(value, 15)} ${help}`), width, theme.ellipsis)}
          </Text>
        );
      })}
      <Text dimColor wrap="truncate-end">
        {truncate(theme.text('Drain timeout 15 min a node; health gate: all nodes Ready, no Pending pod, 3×5 s.'), width, theme.ellipsis)}
      </Text>
    </Box>
  );
}

function PlanPage({
  state,
  name,
  lines,
  budget,
  width,
  readOnly,
  verdict,
}: {
  state: NewRolloutState;
  name: string;
  lines: ReturnType<typeof checklistLines>;
  budget: number;
  width: number;
  readOnly: boolean;
  verdict: ReturnType<typeof planItems> | undefined;
}) {
  const theme = useTheme();
  const text = (s: string, tone?: ColorRole) => (
    <Text color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(s), width, theme.ellipsis)}
    </Text>
  );
  if (state.planError) {
    return (
      <Box flexDirection="column">
        {text(state.planError, 'fail')}
        {text('Go back (esc) and change the selection.', 'muted')}
      </Box>
    );
  }
  if (!state.plan || !verdict) return text('resolving…', 'muted');
  const count = state.plan.nodes.length;
  const flags = [state.force ? '--force' : '', state.deleteEmptyDirData ? '--delete-emptydir-data' : ''].filter(Boolean).join(' ') || 'no --force, no --delete-emptydir-data';
  const head = state.navarchos
    ? [`NodeRollout rollout-… (named by the server) · ${count} node${count === 1 ? '' : 's'} in this order`, 'the Navarchos controller replaces them one at a time, with its own drain settings']
    : [`${name} · ${count} node${count === 1 ? '' : 's'} in this order`, `replace: ${state.replace} · ${state.maxUnavailable} at a time · ${flags}`];
  const start = Math.min(state.scroll, Math.max(0, lines.length - budget));
  const shown = lines.slice(start, start + budget);
  const below = lines.length - start - shown.length;
  let footer: [string, ColorRole];
  if (readOnly) footer = ['Read-only mode: nothing is started (run fleetdeck without --read-only).', 'warn'];
  else if (state.starting) footer = [state.navarchos ? 'creating the NodeRollout…' : 'starting the rollout…', 'running'];
  else if (!verdict.ready) footer = ['dry run: classifying the pods of every node…', 'muted'];
  else if (verdict.refused.length) footer = [`Refused: pods on ${verdict.refused.join(', ')} need a flag — go back (esc) to the options and turn it on, or leave those nodes out.`, 'fail'];
  else footer = [state.navarchos ? 'Press enter to create the NodeRollout: the Navarchos controller does the work.' : `Press enter to start: it cordons and drains ${count} node${count === 1 ? '' : 's'}, highest priority first.`, 'ok'];
  return (
    <Box flexDirection="column">
      {text(head[0]!)}
      {text(head[1]!, 'muted')}
      {start > 0 ? text(`↑ ${start} more line${start === 1 ? '' : 's'}`, 'muted') : null}
      {shown.map((l) => (
        <ChecklistRow key={`${l.item.id}:${l.kind}:${l.depth}`} line={l} width={width} />
      ))}
      {below > 0 ? text(`↓ ${below} more line${below === 1 ? '' : 's'} (j/k scroll)`, 'muted') : null}
      {text(footer[0], footer[1])}
    </Box>
  );
}

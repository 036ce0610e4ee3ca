import { Select, TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import type { NodeRolloutRequest } from '../../../kube/navarchos/objects.js';
import type { Plan } from '../../../rollout/plan.js';
import type { RolloutDryRun } from '../../../rollout/runner/dry-run.js';
import type { PlanNode, RolloutSpec } from '../../../rollout/types.js';
import { checklistLines } from '../../../checklist/checklist.js';
import { planItems } from './plan-items.js';
import { newRolloutName, nodeRolloutFrom, specFrom } from './spec.js';
import { MatchLine, NodesPage, OptionsPage, PlanPage, PrioritiesPage, SelectorsPage } from './pages.js';
import { useDryRun, useNodeListing, useWizardKeys } from './use-new-rollout-effects.js';
import { pagesFor, useNewRolloutState, type NewRolloutPage, type NewRolloutState } from './use-new-rollout-state.js';

/** What confirming starts: a rollout fleetdeck runs, or a NodeRollout for the Navarchos controller. */
export type NewRolloutRequest =
  | { kind: 'fleetdeck'; spec: RolloutSpec; inCluster: boolean }
  | { kind: 'navarchos'; context: string; request: NodeRolloutRequest };

export interface NewRolloutWizardProps {
  /** The dashboard's contexts. */
  contexts: readonly string[];
  /** Preselected context (the one of the selected row). */
  initialContext?: string | undefined;
  /** Whether the context runs the Navarchos controller. */
  navarchosIn: (context: string) => boolean;
  /** Whether the fleet file makes rollouts of the context run in the cluster (the plan page's default). */
  inClusterDefault?: (context: string) => boolean;
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

  useNodeListing(state, dispatch, listNodes);
  // The name is chosen with the plan, so what is shown is what is created.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new plan draws a new name; takenNames is read at that moment
  const name = useMemo(() => (state.context ? newRolloutName(takenNames(state.context)) : ''), [state.plan, state.context]);
  useDryRun(state, dispatch, dryRun, name);

  const verdict = state.plan ? planItems(state.plan, state.dryRun, state.navarchos) : undefined;
  const planLines = verdict ? checklistLines(verdict.items) : [];
  const planBudget = Math.max(3, height - (state.navarchos ? 10 : 11));
  const maxScroll = Math.max(0, planLines.length - planBudget);

  const confirm = () => {
    if (readOnly || state.starting || !state.context || !state.plan || !verdict?.ready) return;
    if (verdict.refused.length) return;
    const context = state.context;
    const request: NewRolloutRequest = state.navarchos
      ? { kind: 'navarchos', context, request: nodeRolloutFrom(state) }
      : { kind: 'fleetdeck', spec: specFrom(state, name), inCluster: state.inCluster };
    dispatch({ type: 'starting' });
    onConfirm(request).then(
      (created) => onExit({ context, kind: request.kind, name: created }),
      (err: unknown) => dispatch({ type: 'startFailed', error: message(err) }),
    );
  };

  useWizardKeys(page, dispatch, { maxScroll, planBudget, confirm, onExit });

  const line = (text: string, tone?: ColorRole, key?: string) => (
    <Text key={key} color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );

  return (
    <Box flexDirection="column" width={width}>
      <Text bold wrap="truncate-end">
        {truncate(
          theme.text(
            `New rollout · ${step}/${pages.length} ${TITLES[page]}${state.context && page !== 'context' ? ` · ${state.context}` : ''}`,
          ),
          width,
          theme.ellipsis,
        )}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {page === 'context' ? (
          <Select
            options={firstOf([...contexts], state.context).map((c) => ({
              label: navarchosIn(c) ? `${c}  (Navarchos: creates a NodeRollout)` : c,
              value: c,
            }))}
            visibleOptionCount={Math.max(3, Math.min(10, height - 6))}
            onChange={(context) =>
              dispatch({ type: 'context', context, navarchos: navarchosIn(context), inCluster: props.inClusterDefault?.(context) ?? false })
            }
          />
        ) : page === 'selectors' ? (
          <SelectorsPage
            state={state}
            width={width}
            rows={height - 6}
            onDraft={(text) => dispatch({ type: 'draft', text })}
            onSubmit={(text) => dispatch({ type: 'selector', text })}
          />
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
      return readOnly
        ? 'j/k scroll · esc back · ctrl-c leave'
        : state.navarchos
          ? 'enter create the NodeRollout · j/k scroll · esc back · ctrl-c leave'
          : `enter start · i run ${state.inCluster ? 'here' : 'in the cluster'} · j/k scroll · esc back · ctrl-c leave`;
  }
}

/** `items` with `first` moved to the front (Select reports a choice only when it differs from its value). */
function firstOf(items: string[], first: string | undefined): string[] {
  return first && items.includes(first) ? [first, ...items.filter((x) => x !== first)] : items;
}

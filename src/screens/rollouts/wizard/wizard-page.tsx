import { Select, TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { checklistLines } from '../../../checklist/checklist.js';
import { truncate, useTheme } from '../../../components/theme/index.js';
import type { RolloutWizardActions } from '../../../store/actions.js';
import type { GuardTextField, NewRolloutState } from '../../../store/rollout-wizard.js';
import type { ShownLine } from '../guard-rails.js';
import { OptionsPage } from './options-page.js';
import { MatchLine, NodesPage, PlanPage, PrioritiesPage, SelectorsPage } from './pages.js';

/** What the pages' widgets send the feed. Stable: the text fields call them from their effects. */
export function useIntents(wizard: RolloutWizardActions) {
  return useMemo(
    () => ({
      context: (context: string) => wizard.send({ type: 'context', context }),
      draft: (text: string) => wizard.send({ type: 'draft', text }),
      selector: (text: string) => wizard.send({ type: 'selector', text }),
      priority: (text: string) => wizard.send({ type: 'selectorPriority', text }),
      nodes: (names: string[]) => wizard.send({ type: 'pickNodes', names }),
      guardText: (field: GuardTextField, text: string) => wizard.send({ type: 'guardText', field, text }),
      options: (field: GuardTextField, text: string) => wizard.send({ type: 'options', field, text }),
    }),
    [wizard],
  );
}

export interface WizardPageProps {
  state: NewRolloutState;
  contexts: readonly string[];
  navarchosIn: (context: string) => boolean;
  on: ReturnType<typeof useIntents>;
  /** The plan page's checklist lines, how many are shown at once, and the guard rails' lines. */
  plan: { lines: ReturnType<typeof checklistLines>; budget: number; guards: readonly ShownLine[] };
  width: number;
  height: number;
}

/** The page the wizard is on: the context list, the selector typed, its priority, the nodes picked, their priorities, the options and guard rails, the plan. */
export function WizardPage({ state, contexts, navarchosIn, on, plan, width, height }: WizardPageProps) {
  const theme = useTheme();
  const muted = (text: string) => (
    <Text dimColor wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );
  switch (state.page) {
    case 'context':
      return (
        <Select
          options={firstOf([...contexts], state.context).map((c) => ({
            label: navarchosIn(c) ? `${c}  (Navarchos: creates a NodeRollout)` : c,
            value: c,
          }))}
          visibleOptionCount={Math.max(3, Math.min(10, height - 6))}
          onChange={on.context}
        />
      );
    case 'selectors':
      return <SelectorsPage state={state} width={width} rows={height - 6} onDraft={on.draft} onSubmit={on.selector} />;
    case 'selectorPriority':
      return (
        <Box flexDirection="column">
          <Text wrap="truncate-end">{truncate(theme.text(`Selector: ${state.draft}`), width, theme.ellipsis)}</Text>
          <MatchLine state={state} width={width} />
          <Box>
            <Text>Priority: </Text>
            <TextInput
              key={`priority:${state.draft}`}
              defaultValue={String(state.selectors.find((s) => s.selector === state.draft)?.priority ?? 10)}
              onSubmit={on.priority}
            />
          </Box>
          {muted('Higher priorities are replaced first; equal ones in any order. Empty: leave this selector out.')}
        </Box>
      );
    case 'nodes':
      return <NodesPage state={state} height={height} width={width} onSubmit={on.nodes} />;
    case 'priorities':
      return <PrioritiesPage state={state} height={height} width={width} />;
    case 'options':
      return <OptionsPage state={state} width={width} height={height} onText={on.guardText} onSubmit={on.options} />;
    case 'plan':
      return <PlanPage state={state} lines={plan.lines} budget={plan.budget} guards={plan.guards} width={width} />;
  }
}

/** `items` with `first` moved to the front (Select reports a choice only when it differs from its value). */
function firstOf(items: string[], first: string | undefined): string[] {
  return first && items.includes(first) ? [first, ...items.filter((x) => x !== first)] : items;
}

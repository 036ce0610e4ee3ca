import { Box, Text } from 'ink';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { checklistLines } from '../../../checklist/checklist.js';
import { useKeyActions } from '../../../components/key-actions/index.js';
import { truncate, useTheme, type ColorRole } from '../../../components/theme/index.js';
import type { RolloutActions } from '../../../store/actions.js';
import type { FleetStore } from '../../../store/fleet-store.js';
import { type NewRolloutPage, pagesFor } from '../../../store/rollout-wizard.js';
import { useAppCommands } from '../../keys/app-commands.js';
import { guardRailLines } from '../guard-rails.js';
import type { RolloutRef } from '../rows.js';
import { NEW_ROLLOUT_KEYS } from './keys.js';
import { useIntents, WizardPage } from './wizard-page.js';

export interface NewRolloutWizardProps {
  store: FleetStore;
  actions: RolloutActions;
  /** Its keys listen. */
  active: boolean;
  width: number;
  /** Rows available (the wizard never draws taller). */
  height: number;
  /** Confirming started this: show its progress. */
  onStarted: (ref: RolloutRef) => void;
}

const TITLES: Record<NewRolloutPage, string> = {
  context: 'Context: the cluster whose nodes are replaced',
  selectors: 'Nodes by label selector',
  selectorPriority: 'Priority of the selector',
  nodes: 'Nodes by name',
  priorities: 'Priority of each node picked by name',
  options: 'How each node is replaced, and guard rails',
  plan: 'The plan and the dry run',
};

/**
 * A new rollout, page by page: the context; nodes by label selector (the matches shown as it is
 * typed) and by name, each with a priority; how nodes are replaced and the guard rails (fleetdeck's runner only);
 * then the resolved order and the dry run of every node's pods with the room check, to
 * confirm. Owns the keyboard; Esc goes back a page, Ctrl-C leaves.
 */
export function NewRolloutWizard({ store, actions, active, width, height, onStarted }: NewRolloutWizardProps) {
  const theme = useTheme();
  const app = useAppCommands();
  const state = useStore(store, (s) => s.rollouts.wizard);
  const contexts = useStore(store, (s) => s.rollouts.contexts);
  const navarchosIn = (c: string) => store.getState().rollouts.byContext[c]?.navarchos?.installed === true;
  const planLines = state?.verdict ? checklistLines(state.verdict.items) : [];
  // The guard rails in full while a few lines of the plan still fit under them, else on one line.
  const guards = state?.page === 'plan' && !state.navarchos ? guardRailLines(state.guards, height - 8 - Math.min(planLines.length, 6)) : [];
  const planBudget = Math.max(3, height - (state?.navarchos ? 7 : 8) - guards.length);
  const maxScroll = Math.max(0, planLines.length - planBudget);
  const wizard = actions.wizard;
  useKeyActions(
    NEW_ROLLOUT_KEYS,
    () => ({
      app,
      state: store.getState().rollouts.wizard ?? state!,
      send: wizard.send,
      confirm: wizard.confirm,
      close: wizard.close,
      maxScroll,
      planBudget,
    }),
    { active: active && state !== undefined && state.started === undefined },
  );
  // What confirming started: its progress is shown, the wizard gone.
  const started = state?.started;
  useEffect(() => {
    if (!started) return;
    onStarted(started);
    wizard.close();
  }, [started, onStarted, wizard]);
  const on = useIntents(wizard);
  if (!state) return null;
  const { page } = state;
  const pages = pagesFor(state.navarchos);
  const step = Math.max(1, pages.indexOf(page === 'selectorPriority' ? 'selectors' : page) + 1);

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
        <WizardPage
          state={state}
          contexts={contexts}
          navarchosIn={navarchosIn}
          on={on}
          plan={{ lines: planLines, budget: planBudget, guards }}
          width={width}
          height={height}
        />
      </Box>
      {state.error ? line(state.error, 'fail') : null}
    </Box>
  );
}

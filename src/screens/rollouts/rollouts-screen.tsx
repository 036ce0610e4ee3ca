import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import { useGate, useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import type { Actions } from '../../store/actions.js';
import type { FleetState, FleetStore } from '../../store/fleet-store.js';
import { actionKey, type ActionStatus } from '../../store/rollouts.js';
import { NavarchosProgress } from './navarchos-progress.js';
import { RolloutList } from './rollout-list.js';
import { RolloutProgress } from './rollout-progress.js';
import { replacementsOf, rolloutRows } from './rows.js';
import { useAppCommands } from '../keys/app-commands.js';
import { ABORT_CONFIRM_KEYS, ROLLOUT_LIST_KEYS, ROLLOUT_PROGRESS_KEYS, type RolloutsKeys } from './keys.js';
import { initialRolloutsNav, rolloutsReducer, type RolloutsNav } from './use-rollouts-state.js';
import { NewRolloutWizard } from './wizard/new-rollout-wizard.js';
import type { HelpSection } from '../../components/help-overlay/index.js';

export interface RolloutsScreenProps {
  store: FleetStore;
  actions: Actions;
  /** The screen's keys listen (not while the help or another tab is in front). */
  active: boolean;
  height: number;
  width: number;
  /** The help overlay's groups: the tab's key tables (its registry entry). */
  help: readonly HelpSection[];
}

/** Seconds tick while something runs (elapsed times, ETAs, heartbeats); nothing redraws otherwise. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}

const RUNNING = new Set(['Running', 'Pending', 'InProgress', 'New']);

function anyRunning(s: FleetState): boolean {
  return Object.values(s.rollouts.byContext).some(
    (c) => Object.values(c.rollouts).some((r) => RUNNING.has(r.phase)) || (c.navarchos?.rollouts ?? []).some((r) => RUNNING.has(r.phase)),
  );
}

/** What the screen shows: the slice, the rows at the time it ticks to, the rollout open and its rows. */
function useRolloutsView(store: FleetStore, nav: RolloutsNav) {
  const data = useStore(
    store,
    useShallow((s) => ({
      contexts: s.rollouts.contexts,
      byContext: s.rollouts.byContext,
      actions: s.rollouts.actions,
      holders: s.rollouts.holders,
    })),
  );
  const wizard = useStore(store, (s) => s.rollouts.wizard);
  const ticking = useStore(store, anyRunning);
  const now = useNow(ticking && wizard === undefined);
  const rows = rolloutRows(data.contexts, data.byContext, now, data.holders);
  const open = nav.open;
  const openState = open?.kind === 'fleetdeck' ? data.byContext[open.context]?.rollouts[open.name] : undefined;
  const openNavarchos = open ? data.byContext[open.context]?.navarchos : undefined;
  const nodeCount = open
    ? open.kind === 'fleetdeck'
      ? (openState?.nodes.length ?? 0)
      : replacementsOf(openNavarchos, open.name).length
    : 0;
  return { data, wizard, now, rows, open, openState, openNavarchos, nodeCount };
}

/** The table of the view the navigation is in. */
const keysOf = (c: RolloutsKeys) => {
  const nav = c.nav.get();
  return nav.confirm ? ABORT_CONFIRM_KEYS : nav.view === 'progress' ? ROLLOUT_PROGRESS_KEYS : ROLLOUT_LIST_KEYS;
};

/**
 * The Rollouts tab: every rollout of the dashboard's contexts (fleetdeck's from their
 * ConfigMaps, Navarchos' NodeRollouts where its CRDs exist), live; Enter opens one's progress,
 * `n` the new-rollout wizard; in the progress view `a` aborts (after y/n) and `r` resumes.
 */
export function RolloutsScreen({ store, actions, active, height, width, help }: RolloutsScreenProps) {
  const theme = useTheme();
  const gate = useGate();
  const app = useAppCommands();
  const [nav, live] = useLiveReducer(rolloutsReducer, initialRolloutsNav);
  const { data, wizard, now, rows, open, openState, openNavarchos, nodeCount } = useRolloutsView(store, nav);
  useKeyActions(keysOf, () => ({ app, nav: live, store, actions, rows, nodeCount }), {
    active: active && wizard === undefined,
    help,
  });

  if (wizard && actions.rollouts) {
    return (
      <NewRolloutWizard
        store={store}
        actions={actions.rollouts}
        active={active}
        width={width}
        height={height}
        onStarted={(opened) => live.dispatch({ type: 'started', opened })}
      />
    );
  }

  // A skipped node was uncordoned already: only the nodes still being worked on are uncordoned by an abort.
  const toUncordon = openState?.nodes.filter((x) => x.cordonedByUs && x.phase !== 'done' && x.phase !== 'skipped').length ?? 0;
  const bottom = bottomLine(nav, toUncordon);
  if (nav.view === 'progress' && open) {
    if (open.kind === 'navarchos') {
      return (
        <NavarchosProgress target={open} navarchos={openNavarchos} now={now} row={nav.row} bottom={bottom} height={height} width={width} />
      );
    }
    const action: ActionStatus | undefined = data.actions[actionKey(open.context, open.name)];
    return (
      <RolloutProgress
        target={open}
        state={openState}
        holder={data.holders?.[actionKey(open.context, open.name)]}
        action={action}
        now={now}
        row={nav.row}
        bottom={bottom}
        height={height}
        width={width}
      />
    );
  }
  return (
    <Box flexDirection="column">
      <RolloutList
        rows={rows}
        contexts={data.contexts}
        byContext={data.byContext}
        selected={Math.min(nav.selected, Math.max(0, rows.length - 1))}
        now={now}
        readOnly={gate.readOnly}
        height={height - (bottom?.lines.length ?? 0)}
        width={width}
      />
      {bottom?.lines.map((l, i) => (
        <Text key={i} color={theme.color(bottom.tone)} dimColor={bottom.tone === 'muted'} wrap="truncate-end">
          {truncate(theme.text(l), width, theme.ellipsis)}
        </Text>
      ))}
    </Box>
  );
}

function bottomLine(nav: RolloutsNav, toUncordon: number): { lines: string[]; tone: ColorRole } | undefined {
  if (nav.confirm === 'abort' && nav.open) {
    const what = toUncordon
      ? `the ${toUncordon} node${toUncordon === 1 ? '' : 's'} it cordoned and did not finish`
      : 'the nodes it cordoned and did not finish';
    return { lines: [`Abort ${nav.open.name} in ${nav.open.context}? y/n`, `It stops the rollout and uncordons ${what}.`], tone: 'warn' };
  }
  if (nav.notice) return { lines: [nav.notice], tone: 'muted' };
  return undefined;
}

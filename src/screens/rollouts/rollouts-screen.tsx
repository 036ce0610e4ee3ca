import { Box, Text } from 'ink';
import { useEffect, useState, type Dispatch } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import type { RolloutActions } from '../../store/actions.js';
import type { FleetState, FleetStore } from '../../store/fleet-store.js';
import type { LogTarget } from '../../store/log-target.js';
import { actionKey, type ActionStatus } from '../../store/rollouts.js';
import { NavarchosProgress } from './navarchos-progress.js';
import { RolloutList } from './rollout-list.js';
import { RolloutProgress } from './rollout-progress.js';
import { replacementsOf, rolloutRows } from './rows.js';
import { useRolloutsKeys } from './use-rollouts-keys.js';
import type { RolloutsAction, RolloutsNav } from './use-rollouts-state.js';
import { NewRolloutWizard, type NewRolloutRequest } from './wizard/new-rollout-wizard.js';

export interface RolloutsScreenProps {
  store: FleetStore;
  actions: RolloutActions;
  nav: RolloutsNav;
  dispatch: Dispatch<RolloutsAction>;
  readOnly: boolean;
  /** The screen's keys listen (not while the help is shown). */
  active: boolean;
  height: number;
  width: number;
  /** `l` on a node whose drain a budget blocks: the blocked pod's log. */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
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

/**
 * The Rollouts tab: every rollout of the dashboard's contexts (fleetdeck's from their
 * ConfigMaps, Navarchos' NodeRollouts where its CRDs exist), live; Enter opens one's progress,
 * `n` the new-rollout wizard; in the progress view `a` aborts (after y/n) and `r` resumes.
 */
export function RolloutsScreen({ store, actions, nav, dispatch, readOnly, active, height, width, onOpenLogs }: RolloutsScreenProps) {
  const theme = useTheme();
  const data = useStore(
    store,
    useShallow((s) => ({ contexts: s.rollouts.contexts, byContext: s.rollouts.byContext, actions: s.rollouts.actions })),
  );
  const ticking = useStore(store, anyRunning);
  const now = useNow(ticking && nav.view !== 'wizard');
  const rows = rolloutRows(data.contexts, data.byContext, now);

  const open = nav.open;
  const openState = open?.kind === 'fleetdeck' ? data.byContext[open.context]?.rollouts[open.name] : undefined;
  const openNavarchos = open ? data.byContext[open.context]?.navarchos : undefined;
  const nodeCount = open
    ? open.kind === 'fleetdeck'
      ? (openState?.nodes.length ?? 0)
      : replacementsOf(openNavarchos, open.name).length
    : 0;
  useRolloutsKeys({ store, actions, nav, dispatch, rows, nodeCount, readOnly, active, onOpenLogs });

  if (nav.view === 'wizard') {
    const selectedContext = nav.open?.context ?? rows[nav.selected]?.ref.context ?? data.contexts[0];
    return (
      <Wizard
        store={store}
        actions={actions}
        dispatch={dispatch}
        contexts={data.contexts}
        initialContext={selectedContext}
        readOnly={readOnly}
        width={width}
        height={height}
      />
    );
  }

  const bottom = bottomLine(nav, openState?.nodes.filter((x) => x.cordonedByUs && x.phase !== 'done').length ?? 0);
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
        lease={data.byContext[open.context]?.leases?.[open.name]}
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
        readOnly={readOnly}
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

interface WizardProps {
  store: FleetStore;
  actions: RolloutActions;
  dispatch: Dispatch<RolloutsAction>;
  contexts: readonly string[];
  initialContext: string | undefined;
  readOnly: boolean;
  width: number;
  height: number;
}

/** The new-rollout wizard, fed from the slice and the actions. */
function Wizard({ store, actions, dispatch, contexts, initialContext, readOnly, width, height }: WizardProps) {
  return (
    <NewRolloutWizard
      contexts={contexts}
      initialContext={initialContext}
      navarchosIn={(c) => store.getState().rollouts.byContext[c]?.navarchos?.installed === true}
      inClusterDefault={(c) => actions.inClusterDefault?.(c) ?? false}
      takenNames={(c) => Object.keys(store.getState().rollouts.byContext[c]?.rollouts ?? {})}
      listNodes={actions.listNodes}
      dryRun={actions.dryRun}
      readOnly={readOnly}
      width={width}
      height={height}
      onConfirm={async (request: NewRolloutRequest) => {
        if (request.kind === 'navarchos') return (await actions.createNodeRollout(request.context, request.request)).name;
        actions.run(request.spec, request.inCluster);
        return request.spec.name;
      }}
      onExit={(started) => dispatch(started ? { type: 'wizardDone', opened: started } : { type: 'wizardDone' })}
    />
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

import { Box, Text, useInput, type Key } from 'ink';
import { useEffect, useRef, useState, type Dispatch } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import { splitKeys } from '../split-keys.js';
import type { RolloutsDeps } from './deps.js';
import type { ActionStatus, FeedState, RolloutFeed } from './feed.js';
import { NavarchosProgress } from './navarchos-progress.js';
import { RolloutList } from './rollout-list.js';
import { RolloutProgress } from './rollout-progress.js';
import { actionKey, replacementsOf, rolloutRows, type RolloutRef } from './rows.js';
import { rolloutsReducer, type RolloutsAction, type RolloutsNav } from './use-rollouts-state.js';
import { NewRolloutWizard, type NewRolloutRequest } from './wizard/new-rollout-wizard.js';

export interface RolloutsScreenProps {
  feed: RolloutFeed;
  deps: Pick<RolloutsDeps, 'listNodes' | 'dryRun'>;
  nav: RolloutsNav;
  dispatch: Dispatch<RolloutsAction>;
  readOnly: boolean;
  /** The screen's keys listen (not while the help is shown). */
  active: boolean;
  height: number;
  width: number;
}

const READ_ONLY = 'start fleetdeck without --read-only';

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

function anyRunning(s: FeedState): boolean {
  return Object.values(s.byContext).some(
    (c) => Object.values(c.rollouts).some((r) => RUNNING.has(r.phase)) || (c.navarchos?.rollouts ?? []).some((r) => RUNNING.has(r.phase)),
  );
}

/** Why `r` does nothing on this rollout, or undefined when it resumes. */
export function resumeRefusal(feed: FeedState, ref: RolloutRef, readOnly: boolean): string | undefined {
  if (ref.kind === 'navarchos') return 'the Navarchos controller drives this rollout: fleetdeck does not resume it';
  if (readOnly) return `read-only: resuming is refused (${READ_ONLY})`;
  const state = feed.byContext[ref.context]?.rollouts[ref.name];
  if (!state) return 'its state has not arrived yet';
  if (state.phase === 'Completed' || state.phase === 'Aborted') return `${ref.name} is ${state.phase}: there is nothing to resume`;
  const action = feed.actions[actionKey(ref.context, ref.name)];
  if (action?.state === 'running' && (action.kind === 'run' || action.kind === 'resume')) return 'it runs here already';
  return undefined;
}

/** Why `a` does nothing on this rollout, or undefined when it asks to abort. */
export function abortRefusal(feed: FeedState, ref: RolloutRef, readOnly: boolean): string | undefined {
  if (ref.kind === 'navarchos') return 'the Navarchos controller drives this rollout: fleetdeck does not abort it';
  if (readOnly) return `read-only: aborting is refused (${READ_ONLY})`;
  const state = feed.byContext[ref.context]?.rollouts[ref.name];
  if (!state) return 'its state has not arrived yet';
  if (state.phase === 'Completed') return `${ref.name} is Completed: there is nothing to abort`;
  const action = feed.actions[actionKey(ref.context, ref.name)];
  if (action?.state === 'running' && action.kind === 'abort') return 'aborting already';
  return undefined;
}

/**
 * The Rollouts tab: every rollout of the dashboard's contexts (fleetdeck's from their
 * ConfigMaps, Navarchos' NodeRollouts where its CRDs exist), live; Enter opens one's progress,
 * `n` the new-rollout wizard; in the progress view `a` aborts (after y/n) and `r` resumes.
 */
export function RolloutsScreen({ feed, deps, nav, dispatch: send, readOnly, active, height, width }: RolloutsScreenProps) {
  const theme = useTheme();
  const data = useStore(feed.store, useShallow((s) => ({ contexts: s.contexts, byContext: s.byContext, actions: s.actions })));
  const ticking = useStore(feed.store, anyRunning);
  const now = useNow(ticking && nav.view !== 'wizard');
  const rows = rolloutRows(data.contexts, data.byContext, now);

  // The navigation as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(nav);
  live.current = nav;
  const dispatch = (action: RolloutsAction) => {
    live.current = rolloutsReducer(live.current, action);
    send(action);
  };

  const open = nav.open;
  const openState = open?.kind === 'fleetdeck' ? data.byContext[open.context]?.rollouts[open.name] : undefined;
  const openNavarchos = open ? data.byContext[open.context]?.navarchos : undefined;
  const nodeCount = open ? (open.kind === 'fleetdeck' ? (openState?.nodes.length ?? 0) : replacementsOf(openNavarchos, open.name).length) : 0;

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
    },
    { isActive: active && nav.view !== 'wizard' },
  );

  function handle(n: RolloutsNav, input: string, key: Key): void {
    if (n.confirm) {
      if (input === 'y' || input === 'Y') {
        if (n.open) feed.abort(n.open.context, n.open.name);
        dispatch({ type: 'confirmed', notice: 'abort requested' });
      } else if (input === 'n' || input === 'N' || key.escape || (key.ctrl && input === 'c')) dispatch({ type: 'cancelConfirm' });
      return;
    }
    if (n.view === 'list') {
      const count = rows.length;
      if (input === 'j' || key.downArrow) dispatch({ type: 'move', delta: 1, count });
      else if (input === 'k' || key.upArrow) dispatch({ type: 'move', delta: -1, count });
      else if (key.pageDown) dispatch({ type: 'move', delta: 10, count });
      else if (key.pageUp) dispatch({ type: 'move', delta: -10, count });
      else if (input === 'g' || key.home) dispatch({ type: 'moveTo', index: 0, count });
      else if (input === 'G' || key.end) dispatch({ type: 'moveTo', index: count - 1, count });
      else if (key.return || key.rightArrow) {
        const row = rows[Math.min(n.selected, count - 1)];
        if (row) dispatch({ type: 'open', ref: row.ref });
      } else if (input === 'n') dispatch(feed.store.getState().contexts.length ? { type: 'newRollout' } : { type: 'notice', text: 'no context to roll out: fleetdeck has no kube context' });
      return;
    }
    if (n.view === 'progress' && n.open) {
      const count = nodeCount;
      if (key.escape || key.leftArrow) dispatch({ type: 'back' });
      else if (input === 'j' || key.downArrow) dispatch({ type: 'rowMove', delta: 1, count });
      else if (input === 'k' || key.upArrow) dispatch({ type: 'rowMove', delta: -1, count });
      else if (key.pageDown) dispatch({ type: 'rowMove', delta: 10, count });
      else if (key.pageUp) dispatch({ type: 'rowMove', delta: -10, count });
      else if (input === 'g' || key.home) dispatch({ type: 'rowTo', index: 0, count });
      else if (input === 'G' || key.end) dispatch({ type: 'rowTo', index: count - 1, count });
      else if (input === 'n') dispatch({ type: 'newRollout' });
      else if (input === 'a') {
        const why = abortRefusal(feed.store.getState(), n.open, readOnly);
        dispatch(why ? { type: 'notice', text: why } : { type: 'confirm', what: 'abort' });
      } else if (input === 'r') {
        const why = resumeRefusal(feed.store.getState(), n.open, readOnly);
        if (why) dispatch({ type: 'notice', text: why });
        else {
          feed.resume(n.open.context, n.open.name);
          dispatch({ type: 'notice', text: `resuming ${n.open.name} here…` });
        }
      }
    }
  }

  if (nav.view === 'wizard') {
    const selectedContext = nav.open?.context ?? rows[nav.selected]?.ref.context ?? data.contexts[0];
    return (
      <NewRolloutWizard
        contexts={data.contexts}
        initialContext={selectedContext}
        navarchosIn={(c) => feed.store.getState().byContext[c]?.navarchos?.installed === true}
        takenNames={(c) => Object.keys(feed.store.getState().byContext[c]?.rollouts ?? {})}
        listNodes={deps.listNodes}
        dryRun={deps.dryRun}
        readOnly={readOnly}
        width={width}
        height={height}
        onConfirm={async (request: NewRolloutRequest) => {
          if (request.kind === 'navarchos') return (await feed.createNodeRollout(request.context, request.request)).name;
          feed.run(request.spec);
          return request.spec.name;
        }}
        onExit={(started) => dispatch(started ? { type: 'wizardDone', opened: started } : { type: 'wizardDone' })}
      />
    );
  }

  const bottom = bottomLine(nav, openState?.nodes.filter((x) => x.cordonedByUs && x.phase !== 'done').length ?? 0);
  if (nav.view === 'progress' && open) {
    if (open.kind === 'navarchos') {
      return <NavarchosProgress target={open} navarchos={openNavarchos} now={now} row={nav.row} bottom={bottom} height={height} width={width} />;
    }
    const action: ActionStatus | undefined = data.actions[actionKey(open.context, open.name)];
    return <RolloutProgress target={open} state={openState} action={action} now={now} row={nav.row} bottom={bottom} height={height} width={width} />;
  }
  return (
    <Box flexDirection="column">
      <RolloutList rows={rows} contexts={data.contexts} byContext={data.byContext} selected={Math.min(nav.selected, Math.max(0, rows.length - 1))} now={now} readOnly={readOnly} height={height - (bottom?.lines.length ?? 0)} width={width} />
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
    const what = toUncordon ? `the ${toUncordon} node${toUncordon === 1 ? '' : 's'} it cordoned and did not finish` : 'the nodes it cordoned and did not finish';
    return { lines: [`Abort ${nav.open.name} in ${nav.open.context}? y/n`, `It stops the rollout and uncordons ${what}.`], tone: 'warn' };
  }
  if (nav.notice) return { lines: [nav.notice], tone: 'muted' };
  return undefined;
}

import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { truncate, useTheme } from '../../components/theme/index.js';
import type { LogActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { mergedLines, searchMatches } from '../../store/logs.js';
import { useAppCommands } from '../keys/app-commands.js';
import { EventsPane } from './events-pane.js';
import { LOG_HELP, LOG_KEYS, LOG_SEARCH_KEYS, type LogViewKeys } from './keys.js';
import { LogHeader } from './log-header.js';
import { LogLines } from './log-lines.js';
import { initialLogViewNav, logViewReducer } from './log-view-nav.js';
import { logWindow } from './log-window.js';

/** From this width the Events pane stands beside the log (and is shown until `e` hides it). */
export const EVENTS_BESIDE_WIDTH = 100;
const EVENTS_PANE_WIDTH = 38;
const HEADER_LINES = 3;

export interface LogViewProps {
  store: FleetStore;
  actions: LogActions;
  width: number;
  /** Lines available (the app's key hints are under them). */
  height: number;
  /** Its keys listen. */
  active: boolean;
}

/** The table of what the view is doing: a search being typed, or the log. */
const keysOf = (c: LogViewKeys) => (c.nav.get().typing !== undefined ? LOG_SEARCH_KEYS : LOG_KEYS);

/**
 * The log of the pods behind a row: a header (what, where, the switches), the lines that fit
 * (the newest at the bottom while following), the Events of the object beside or under them,
 * and a line for the search, the last save or an error. It owns the keyboard (keys.ts).
 */
export function LogView({ store, actions, width, height, active }: LogViewProps) {
  const theme = useTheme();
  const app = useAppCommands();
  const slice = useStore(store, (s) => s.logs);
  // Each flush brings a new sources array (the rings inside are filled in place).
  const lines = useMemo(() => mergedLines(slice.sources), [slice.sources]);
  const matches = useMemo(() => searchMatches(lines, slice.search), [lines, slice.search]);
  const beside = width >= EVENTS_BESIDE_WIDTH;
  const logHeight = Math.max(1, height - HEADER_LINES - 1);
  const [nav, live] = useLiveReducer(logViewReducer, initialLogViewNav);
  useKeyActions(keysOf, () => ({ app, nav: live, store, actions, lines, matches, page: logHeight, eventsByDefault: beside }), {
    active,
    help: LOG_HELP,
  });
  const eventsShown = nav.events ?? beside;
  const eventsHeight = eventsShown && !beside ? Math.max(2, Math.floor(logHeight / 3)) : 0;
  const logWidth = eventsShown && beside ? width - EVENTS_PANE_WIDTH - 1 : width;
  const rowsHeight = logHeight - eventsHeight;
  const rows = logWindow(lines, slice.sources, {
    width: logWidth,
    height: rowsHeight,
    wrap: slice.wrap,
    timestamps: slice.timestamps,
    search: slice.search,
    ...(nav.anchor !== undefined ? { anchor: nav.anchor } : {}),
    ellipsis: theme.ellipsis,
  });
  const about = slice.target?.events
    ? `${slice.target.events.kind} ${slice.target.events.name}`
    : slice.sources[0]
      ? `Pod ${slice.sources[0].pod}`
      : 'the target';
  const errors = slice.sources.filter((s) => typeof s.status === 'object');
  const status = statusLine(slice, nav.typing, matches, errors);
  const events = (w: number, h: number) => (
    <EventsPane events={slice.events} {...(slice.eventsError ? { error: slice.eventsError } : {})} about={about} width={w} height={h} />
  );
  const empty = lines.length === 0 && errors.length === 0 && slice.phase === 'ready';

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <LogHeader slice={slice} paused={nav.anchor !== undefined} width={width} />
      <Box flexDirection="row" height={logHeight} overflow="hidden">
        <Box flexDirection="column" width={logWidth} height={logHeight} overflow="hidden">
          {empty ? <Text dimColor>{theme.text(slice.follow ? 'waiting for lines…' : 'no lines')}</Text> : null}
          {/* No line at all: each pod's error, one line each (the API's own words). */}
          {lines.length === 0
            ? errors.slice(0, Math.max(0, rowsHeight - 1)).map((e) => (
                <Text key={e.pod} color={theme.color('fail')}>
                  {theme.text(truncate(`${e.pod}: ${(e.status as { error: string }).error}`, logWidth, theme.ellipsis))}
                </Text>
              ))
            : null}
          <LogLines
            rows={rows}
            {...(slice.match !== undefined ? { match: slice.match } : {})}
            width={logWidth}
            height={rowsHeight - (empty ? 1 : 0)}
          />
          {eventsHeight ? events(width, eventsHeight) : null}
        </Box>
        {eventsShown && beside ? <Box marginLeft={1}>{events(EVENTS_PANE_WIDTH, logHeight)}</Box> : null}
      </Box>
      <Text color={status.kind === 'fail' ? theme.color('fail') : status.kind === 'ok' ? theme.color('ok') : undefined}>
        {theme.text(truncate(status.text || ' ', width, theme.ellipsis))}
      </Text>
    </Box>
  );
}

/** The view's last line: the search being typed, the last save, an error, or where the search stands. */
function statusLine(
  slice: ReturnType<FleetStore['getState']>['logs'],
  typing: string | undefined,
  matches: readonly number[],
  errors: readonly { pod: string; status: unknown }[],
): { text: string; kind?: 'ok' | 'fail' } {
  if (typing !== undefined) return { text: `/${typing}` };
  if (slice.note) return slice.note;
  const first = errors[0];
  if (first) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more pods)` : '';
    return { text: `${first.pod}: ${(first.status as { error: string }).error}${more}`, kind: 'fail' };
  }
  if (slice.search) {
    if (matches.length === 0) return { text: `"${slice.search}": no match`, kind: 'fail' };
    const at = slice.match === undefined ? 0 : matches.indexOf(slice.match) + 1;
    return { text: `"${slice.search}": match ${at}/${matches.length} (n older · N newer)` };
  }
  return { text: '' };
}

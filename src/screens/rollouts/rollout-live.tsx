import { Box, render, Static, Text, useWindowSize } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { colorAllowed, truncate, UiProvider, useTheme } from '../../components/theme/index.js';
import { etaMs } from '../../report/rollout/view.js';
import type { RolloutLogLine, RolloutState } from '../../rollout/types.js';
import { clock } from '../../store/selectors.js';
import { MAX_FPS } from '../render.js';
import { guardRailLines, holdLines, type ShownLine } from './guard-rails.js';
import { NodeTable } from './node-table.js';
import { ProgressLine } from './progress-line.js';
import { durationText, nodeRows } from './rows.js';

export interface RolloutLiveProps {
  state: RolloutState | undefined;
  /** Shown until the first state arrives. */
  waiting: string;
}

const lineKey = (l: RolloutLogLine) => `${l.time}\u0000${l.message}`;

/**
 * A rollout in a terminal (`fleetdeck rollout create|resume|watch NAME`): what happened goes to
 * Ink's `<Static>` — printed once, it scrolls away with the terminal's history — and under it the
 * live part: what holds it, its guard rails, the overall progress bar with its ETA and one row per
 * node, never taller than the terminal.
 */
export function RolloutLive({ state, waiting }: RolloutLiveProps) {
  const theme = useTheme();
  const { columns, rows: height } = useWindowSize();
  const width = Math.max(40, columns - 1);
  // The state keeps only its last lines: <Static> gets every line once, in order, as they come.
  const seen = useRef(new Set<string>());
  const [log, setLog] = useState<{ key: string; text: string }[]>([]);
  useEffect(() => {
    const fresh = (state?.log ?? []).filter((l) => !seen.current.has(lineKey(l)));
    if (!fresh.length) return;
    for (const l of fresh) seen.current.add(lineKey(l));
    setLog((prev) => [...prev, ...fresh.map((l) => ({ key: lineKey(l), text: `${clock(Date.parse(l.time))} ${l.message}` }))]);
  }, [state]);
  // Elapsed times and the ETA move on their own.
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);

  const done = state?.nodes.filter((n) => n.phase === 'done').length ?? 0;
  const skipped = state?.nodes.filter((n) => n.phase === 'skipped').length ?? 0;
  const total = state?.nodes.length ?? 0;
  const eta = state?.phase === 'Running' ? etaMs(state, now) : undefined;
  const nodeRowsNow = state ? nodeRows(state, now) : [];
  const tableNeed = 1 + nodeRowsNow.reduce((s, r) => s + (r.note ? 2 : 1), 0);
  const hold = state?.phase === 'Running' ? state.hold : undefined;
  const held: ShownLine[] = hold ? holdLines(hold, now) : [];
  // The guard rails in full when the table still fits beside them, else on one line.
  const guards = guardRailLines(state?.spec.guards, height - 5 - held.length - tableNeed);
  const tableHeight = Math.max(3, Math.min(tableNeed, height - 5 - held.length - guards.length));
  const shown = (l: ShownLine, key: string, bold = false) => (
    <Text key={key} bold={bold} color={l.tone ? theme.color(l.tone) : undefined} dimColor={l.tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(l.text), width, theme.ellipsis)}
    </Text>
  );
  return (
    <>
      <Static items={log}>
        {(l) => (
          <Text key={l.key} wrap="truncate-end">
            {truncate(theme.text(l.text), width, theme.ellipsis)}
          </Text>
        )}
      </Static>
      {state ? (
        <Box flexDirection="column" width={width}>
          <Text bold wrap="truncate-end">
            {truncate(
              theme.text(
                `${state.spec.name} · ${state.spec.context} · ${hold ? 'Running · held' : state.phase}${state.message ? ` · ${state.message}` : ''}`,
              ),
              width,
              theme.ellipsis,
            )}
          </Text>
          {held.map((l, i) => shown(l, `h${i}`, i === 0))}
          {guards.map((l, i) => shown(l, `g${i}`))}
          <ProgressLine
            fraction={total ? (done + skipped) / total : 0}
            label={[
              `${done}/${total} nodes done${skipped ? `, ${skipped} skipped` : ''}`,
              eta !== undefined && eta > 0 ? `ETA ${durationText(eta)}` : '',
            ]
              .filter(Boolean)
              .join(' · ')}
            width={width}
          />
          <Box height={tableHeight} flexDirection="column" overflow="hidden">
            <NodeTable rows={nodeRowsNow} selected={-1} height={tableHeight} width={width} />
          </Box>
        </Box>
      ) : (
        <Text dimColor>{theme.text(waiting)}</Text>
      )}
    </>
  );
}

export interface LiveView {
  update(state: RolloutState): void;
  /** Leaves the last frame on screen and returns to plain output. */
  stop(): void;
}

/** Draws a rollout live on this terminal until `stop()`. */
export function renderRolloutLive(opts: { ascii: boolean; color: boolean; waiting: string }): LiveView {
  let current: RolloutState | undefined;
  const tree = () => (
    <UiProvider value={{ ascii: opts.ascii, color: colorAllowed(opts.color) }}>
      <RolloutLive state={current} waiting={opts.waiting} />
    </UiProvider>
  );
  const app = render(tree(), { exitOnCtrlC: false, maxFps: MAX_FPS, patchConsole: false });
  return {
    update(state) {
      current = state;
      app.rerender(tree());
    },
    stop() {
      app.unmount();
    },
  };
}

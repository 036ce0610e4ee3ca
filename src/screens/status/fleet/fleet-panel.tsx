import { Box } from 'ink';
import { useStore } from 'zustand';
import { viewSize } from '../../../components/fit/index.js';
import { useTheme } from '../../../components/theme/index.js';
import type { FleetStore } from '../../../store/fleet-store.js';
import type { LogTarget } from '../../../store/log-target.js';
import { ScrollPage } from '../scroll-page.js';
import { FLEET_KEYS } from '../keys.js';
import { useDetailScroll } from '../use-detail-scroll.js';
import { useStatusKeys } from '../use-status-keys.js';
import { fleetLines } from './fleet-lines.js';
import { fleetSummary, fleetTitle } from './fleet-summary.js';
import { FleetSummaryLine } from './fleet-summary-line.js';
import { CursorLines, POINTER_WIDTH } from '../cursor-lines.js';
import { lineRows } from './line-rows.js';
import { clusterLogTarget, fleetItemLogTarget } from './log-targets.js';
import { useFleetChecklist } from './use-fleet-checklist.js';
import { useLineCursor } from './use-line-cursor.js';

export interface FleetPanelProps {
  store: FleetStore;
  height: number;
  width: number;
  /** j/k move, l opens logs (false while help is open). */
  isActive: boolean;
  /** `l` on a row that stands for pods (a component, the API server Service, an agent, a registered cluster). */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
}

/** The pods behind a row of the page, if it stands for any. */
function targetOf(id: string | undefined, store: FleetStore): LogTarget | undefined {
  if (!id) return undefined;
  const state = store.getState();
  return id.startsWith('cluster/') ? clusterLogTarget(id.slice('cluster/'.length), state) : fleetItemLogTarget(id, state);
}

/**
 * The whole fleet checklist, live, in the wording of `kubectl nova status`, and the registered
 * clusters, with a cursor (the pointer on its row, as in the tables): `l` on a row that stands
 * for pods opens their logs. Without a fleet, how to define one.
 */
export function FleetPanel({ store, height, width, isActive, onOpenLogs }: FleetPanelProps) {
  const theme = useTheme();
  const fleet = useStore(store, (s) => s.fleet);
  const { items, clusters } = useFleetChecklist(store);
  // With a fleet, its rows are laid out beside the pointer's gutter (the selection shows without colour).
  const lines = fleetLines(items, clusters, fleet ? width - POINTER_WIDTH : width, { ascii: theme.ascii });
  const rows = lineRows(lines);
  const pageHeight = Math.max(1, height - 2);
  const view = viewSize(lines.length, pageHeight, 1);
  const { row, offset, move } = useLineCursor(rows, lines.length, view);
  const scroll = useDetailScroll(lines.length, viewSize(lines.length, height, 1));
  const target = targetOf(row?.id, store);
  useStatusKeys(
    FLEET_KEYS,
    () =>
      fleet
        ? { move, logs: target && onOpenLogs ? () => onOpenLogs(target) : undefined }
        : // Without a fleet the page of how to define one scrolls.
          { move: scroll.move },
    isActive,
  );
  // Without a fleet the checklist says so itself, with how to define one.
  if (!fleet) return <ScrollPage lines={lines} offset={scroll.offset} height={height} width={width} />;
  return (
    <Box flexDirection="column">
      <FleetSummaryLine
        title={fleetTitle(fleet)}
        summary={fleetSummary(items)}
        hint={target ? `l: logs ${theme.separator} c: contexts` : 'c: contexts'}
        width={width}
      />
      <Box marginTop={1}>
        <CursorLines lines={lines} row={row} offset={offset} height={pageHeight} width={width} pointer />
      </Box>
    </Box>
  );
}

import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { CheckState } from '../../../checklist/checklist.js';
import { viewSize } from '../../../components/fit/index.js';
import { truncate, useTheme } from '../../../components/theme/index.js';
import { certCounts } from '../../../report/certs/table.js';
import type { CertsActions } from '../../../store/actions.js';
import type { CertsSlice } from '../../../store/certs.js';
import type { FleetStore } from '../../../store/fleet-store.js';
import { clock } from '../../../store/selectors.js';
import { CERTS_KEYS } from '../keys.js';
import { useStatusKeys } from '../use-status-keys.js';
import { RowPane } from '../detail/row-pane.js';
import { useNow } from '../detail/use-now.js';
import { FleetSummaryLine } from '../fleet/fleet-summary-line.js';
import { CursorLines } from '../cursor-lines.js';
import { lineRows } from '../fleet/line-rows.js';
import { useLineCursor } from '../fleet/use-line-cursor.js';
import { certPage, certRowId } from './cert-lines.js';
import { certPane } from './cert-pane.js';

export interface CertsViewProps {
  store: FleetStore;
  /** Absent: nothing reads the certificates (the view says so). */
  actions?: CertsActions | undefined;
  /** The selected certificate is shown in full under the list (Enter; Esc closes it). */
  expanded: boolean;
  height: number;
  width: number;
  /** j/k move, r reads again (false while the help is open). */
  isActive: boolean;
}

/** Lines the pane of the selected certificate takes at most. */
const PANE_MAX = 7;

/**
 * Every certificate of the fleet, live, as `fleetdeck certs` lists them: grouped by where they
 * are, √/‼/✗ by their residual time against --warn-days, the name, residual time and expiry,
 * who uses it; Enter shows the selected one in full (subject, issuer, SANs, serial, source).
 * Shown, it makes the certs feed read every minute and when the control plane's Secrets change.
 */
export function CertsView({ store, actions, expanded, height, width, isActive }: CertsViewProps) {
  const theme = useTheme();
  const slice = useStore(store, (s) => s.certs);
  const now = useNow(60_000);
  useEffect(() => {
    actions?.show();
    return () => actions?.hide();
  }, [actions]);
  const page = useMemo(
    () => (slice.sources ? certPage(slice.sources, now, slice.warnDays) : undefined),
    [slice.sources, slice.warnDays, now],
  );
  const lines = page?.lines ?? [];
  const rows = lineRows(lines);
  // The summary, the line saying when it was read, a blank line, then the list and the pane.
  const paneHeight = expanded && page ? Math.min(PANE_MAX, Math.max(3, Math.floor((height - 3) / 2))) : 0;
  const listHeight = Math.max(1, height - 3 - paneHeight);
  const { row, offset, move } = useLineCursor(rows, lines.length, viewSize(lines.length, listHeight, 1));
  useStatusKeys(CERTS_KEYS, () => ({ move }), isActive);
  const selectedRow = row ? page?.rows.find((r) => certRowId(r) === row.id) : undefined;
  const counts = page ? certCounts(page.inventory, now, slice.warnDays) : undefined;
  // What needs doing first: the expired and unreadable, then the expiring.
  const summary = counts
    ? {
        state: (counts.fail ? 'fail' : counts.warn ? 'warn' : 'ok') as CheckState,
        text: [`${counts.fail} expired or unreadable`, `${counts.warn} expiring within ${slice.warnDays} days`, `${counts.ok} ok`].join(
          ` ${theme.separator} `,
        ),
      }
    : { state: 'running' as CheckState, text: slice.error ? 'cannot read' : 'reading…' };
  const status = statusOf(slice, actions !== undefined, theme.separator);
  return (
    <Box flexDirection="column">
      <FleetSummaryLine title="Certificates" summary={summary} width={width} />
      <Text dimColor color={slice.error ? theme.color('fail') : undefined}>
        {truncate(theme.text(status), width, theme.ellipsis)}
      </Text>
      <Box marginTop={1} flexDirection="column">
        <CursorLines
          lines={lines}
          row={row}
          offset={offset}
          height={listHeight}
          width={width}
          keys={`j/k move ${theme.separator} enter: details`}
        />
        {paneHeight && selectedRow ? <RowPane pane={certPane(selectedRow, now)} height={paneHeight} width={width} /> : null}
      </Box>
    </Box>
  );
}

/** The line under the summary: when it was read and when it is read again, or why it shows less than the whole fleet. */
function statusOf(slice: CertsSlice, reads: boolean, sep: string): string {
  if (!reads) return 'certificates are not read in this run';
  const read = slice.reading ? 'reading…' : slice.readAt !== undefined ? `read ${clock(slice.readAt)}` : '';
  const why = slice.error
    ? `last read failed: ${slice.error}`
    : slice.noFleet
      ? "no fleet defined: only the kubeconfig's certificates (a fleet file or --hosting-context adds the control plane's)"
      : 'read again every minute and when the Secrets change';
  return [read, why].filter(Boolean).join(` ${sep} `);
}

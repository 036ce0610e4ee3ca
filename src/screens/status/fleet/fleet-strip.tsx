import { Box, Text } from 'ink';
import { ChecklistRow } from '../../../components/checklist/index.js';
import { useTheme } from '../../../components/theme/index.js';
import { checklistLines } from '../../../checklist/checklist.js';
import type { FleetConfig } from '../../../kube/fleet.js';
import { fleetProblems, fleetSummary, fleetTitle } from './fleet-summary.js';
import { FleetSummaryLine } from './fleet-summary-line.js';
import { useFleetChecklist } from './use-fleet-checklist.js';
import type { FleetStore } from '../../../store/fleet-store.js';

export interface FleetStripProps {
  store: FleetStore;
  fleet: FleetConfig;
  /** Lines available: the gap and the summary always show; problems as many as fit. */
  height: number;
  width: number;
}

/** Lines the strip needs at least: the gap above it and the summary line. */
export const FLEET_STRIP_MIN = 2;

/** Under the contexts table: the fleet's summary line, then what failed or warns, as room allows. */
export function FleetStrip({ store, fleet, height, width }: FleetStripProps) {
  const theme = useTheme();
  const { items } = useFleetChecklist(store);
  const summary = fleetSummary(items);
  const problems = checklistLines(fleetProblems(items));
  const room = Math.max(0, height - FLEET_STRIP_MIN);
  const cut = problems.length > room;
  const shown = problems.slice(0, cut ? Math.max(0, room - 1) : room);
  const more = problems.filter((l) => l.kind === 'item').length - shown.filter((l) => l.kind === 'item').length;
  return (
    <Box flexDirection="column" marginTop={1}>
      <FleetSummaryLine title={fleetTitle(fleet)} summary={summary} hint="f: checklist" width={width} />
      {shown.map((line) => (
        <ChecklistRow key={`${line.item.id}:${line.kind}`} line={{ ...line, depth: line.depth + 1 }} width={width} />
      ))}
      {cut && room > 0 ? <Text dimColor>{theme.text(`  … ${more > 0 ? `${more} more` : 'more'}: press f for the whole checklist`)}</Text> : null}
    </Box>
  );
}

/** Under the contexts table when no fleet is defined. */
export function NoFleetHint() {
  const theme = useTheme();
  return (
    <Box marginTop={1}>
      <Text dimColor>{theme.text('no fleet defined — press f to see how')}</Text>
    </Box>
  );
}

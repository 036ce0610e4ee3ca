import { Box, Text } from 'ink';
import { Checklist } from '../../../components/checklist/index.js';
import { useTheme } from '../../../components/theme/index.js';
import type { FleetConfig } from '../../../kube/fleet/fleet.js';
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
  const { items } = useFleetChecklist(store);
  return (
    <Box flexDirection="column" marginTop={1}>
      <FleetSummaryLine title={fleetTitle(fleet)} summary={fleetSummary(items)} hint="f: checklist" width={width} />
      <Checklist
        items={fleetProblems(items)}
        height={Math.max(0, height - FLEET_STRIP_MIN)}
        depth={1}
        width={width}
        more={({ items: more }) => `  … ${more > 0 ? `${more} more` : 'more'}: press f for the whole checklist`}
      />
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

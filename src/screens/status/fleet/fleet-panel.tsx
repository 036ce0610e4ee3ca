import { Box } from 'ink';
import { useStore } from 'zustand';
import { useTheme } from '../../../components/theme/index.js';
import type { FleetStore } from '../../../store/fleet-store.js';
import { ScrollPage } from '../scroll-page.js';
import { fleetLines } from './fleet-lines.js';
import { fleetSummary, fleetTitle } from './fleet-summary.js';
import { FleetSummaryLine } from './fleet-summary-line.js';
import { useFleetChecklist } from './use-fleet-checklist.js';

export interface FleetPanelProps {
  store: FleetStore;
  height: number;
  width: number;
  /** j/k scroll it (false while help is open). */
  isActive: boolean;
}

/** The whole fleet checklist, live, in the wording of `kubectl nova status`, and the registered clusters; without a fleet, how to define one. */
export function FleetPanel({ store, height, width, isActive }: FleetPanelProps) {
  const theme = useTheme();
  const fleet = useStore(store, (s) => s.fleet);
  const { items, clusters } = useFleetChecklist(store);
  const lines = fleetLines(items, clusters, width, { ascii: theme.ascii });
  // Without a fleet the checklist says so itself, with how to define one.
  if (!fleet) return <ScrollPage lines={lines} height={height} width={width} isActive={isActive} />;
  return (
    <Box flexDirection="column">
      <FleetSummaryLine title={fleetTitle(fleet)} summary={fleetSummary(items)} hint="c: contexts" width={width} />
      <Box marginTop={1}>
        <ScrollPage lines={lines} height={Math.max(1, height - 2)} width={width} isActive={isActive} />
      </Box>
    </Box>
  );
}

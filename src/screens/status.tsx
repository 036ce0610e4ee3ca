import { Box, Text } from 'ink';
import type { FleetStore } from '../store/fleet-store.js';
import { useTheme } from '../components/theme/index.js';
import { ContextDetail } from './status/context-detail.js';
import { ContextTable } from './status/context-table.js';
import { EmptyFleet } from './status/empty-fleet.js';
import { FilterLine } from './status/filter-line.js';
import type { AppState } from './use-app-state.js';

export interface StatusScreenProps {
  store: FleetStore;
  state: AppState;
  /** Context names after the filter, in display order. */
  names: readonly string[];
  /** How many contexts the store has, before the filter. */
  total: number;
  height: number;
  width: number;
  canStartSandbox: boolean;
}

/** Every context live, one row each; Enter opens one. */
export function StatusScreen({ store, state, names, total, height, width, canStartSandbox }: StatusScreenProps) {
  const theme = useTheme();
  if (total === 0) return <EmptyFleet canStartSandbox={canStartSandbox} />;
  if (state.detail !== undefined) {
    return <ContextDetail store={store} name={state.detail} height={height} width={width} isActive={!state.help} />;
  }
  const showFilter = state.filtering || state.filter !== '';
  const tableHeight = height - (showFilter ? 1 : 0);
  return (
    <Box flexDirection="column">
      {showFilter ? <FilterLine filter={state.filter} editing={state.filtering} shown={names.length} total={total} /> : null}
      {names.length === 0 ? (
        <Text dimColor>{theme.text(`No context matches "${state.filter}".`)}</Text>
      ) : (
        <ContextTable store={store} names={names} selected={state.selected} height={tableHeight} width={width} />
      )}
    </Box>
  );
}

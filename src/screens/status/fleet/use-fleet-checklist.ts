import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { fleetChecklist, novaClustersTable } from '../../../report/fleet-checklist.js';
import type { CheckItem } from '../../../checklist/checklist.js';
import type { FleetStore } from '../../../store/fleet-store.js';

export interface FleetChecks {
  items: CheckItem[];
  /** `kubectl get clusters` rows, header first. */
  clusters: string[][];
}

/**
 * The fleet checklist, worked out again only when the fleet or one of the
 * contexts changed (slices are replaced whole, so comparing references is enough).
 */
export function useFleetChecklist(store: FleetStore): FleetChecks {
  const deps = useStore(
    store,
    useShallow((s) => [s.fleet, ...s.status.order.map((n) => s.status.contexts[n])]),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: `deps` is what the checklist is made of; it is read whole through getState
  return useMemo(() => {
    const state = store.getState();
    return { items: fleetChecklist(state), clusters: novaClustersTable(state) };
  }, [store, deps]);
}

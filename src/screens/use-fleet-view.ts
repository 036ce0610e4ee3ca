import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { FleetStore } from '../store/fleet-store.js';

/** Context names matching a name filter (case-insensitive substring), in display order. */
export function filterNames(order: readonly string[], filter: string): string[] {
  const f = filter.trim().toLowerCase();
  return f ? order.filter((n) => n.toLowerCase().includes(f)) : [...order];
}

/** What the chrome needs from the store: names (filtered), and how many are reachable. */
export function useFleetView(store: FleetStore, filter: string) {
  const order = useStore(
    store,
    useShallow((s) => s.status.order),
  );
  const reachable = useStore(store, (s) => s.status.order.filter((n) => s.status.contexts[n]?.reachability === 'reachable').length);
  const banner = useStore(store, (s) => s.banner);
  const names = useMemo(() => filterNames(order, filter), [order, filter]);
  return { order, total: order.length, reachable, names, banner };
}

/**
 * Who runs each rollout, and whether they still do: its Lease's holder (or an old record's
 * heartbeat), live, expired or dead — a process on this host is looked up. Kept in the slice
 * (`holders`, by actionKey) for the screens, judged again when the rollouts or their Leases change
 * and every second while anyone holds one (a Lease expires with time, a process here ends); the
 * slice changes only when what is judged does (the renewal's age is the screen's, from its time).
 */
import { holderView, type HolderView } from '../../rollout/owner-liveness.js';
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import { actionKey, type RolloutsSlice } from '../../store/rollouts.js';

const EVERY_MS = 1000;

/** Every rollout's holder now. */
export function holdersOf(slice: RolloutsSlice, now: number): Record<string, HolderView> {
  const out: Record<string, HolderView> = {};
  for (const [context, c] of Object.entries(slice.byContext)) {
    for (const [name, state] of Object.entries(c.rollouts)) {
      const v = holderView(c.leases?.[name], state, now);
      if (v) out[actionKey(context, name)] = v;
    }
  }
  return out;
}

/** What a holder's line says apart from the time passing: who, live / expired / dead and why, the renewal. */
const judged = (holders: Record<string, HolderView> | undefined) =>
  JSON.stringify(
    Object.entries(holders ?? {}).map(([key, v]) => [
      key,
      v.holder,
      v.liveness.state === 'dead' ? v.liveness : v.liveness.state,
      v.renewTime,
      v.legacy,
    ]),
  );

const same = (a: Record<string, HolderView> | undefined, b: Record<string, HolderView>) => judged(a) === judged(b);

/** Keeps the slice's holders current; returns the stop. */
export function followHolders(store: FleetStore, now: () => number = Date.now): () => void {
  let timer: NodeJS.Timeout | undefined;
  const refresh = () => {
    const slice = store.getState().rollouts;
    const holders = holdersOf(slice, now());
    if (!same(slice.holders, holders)) updateSlice(store, 'rollouts', (s) => ({ ...s, holders }));
    const held = Object.keys(holders).length > 0;
    if (held && !timer) {
      timer = setInterval(refresh, EVERY_MS);
      timer.unref?.();
    } else if (!held && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.rollouts.byContext !== prev.rollouts.byContext) refresh();
  });
  refresh();
  return () => {
    unsubscribe();
    clearInterval(timer);
  };
}

/** One context's watches for the Rollouts tab: fleetdeck's rollouts, their Leases and Navarchos, into the rollouts slice. */
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import {
  leaseChanged,
  leaseDeleted,
  leasesListed,
  navarchosSeen,
  rolloutChanged,
  rolloutDeleted,
  rolloutsFailed,
  rolloutsListed,
  type RolloutsSlice,
} from '../../store/rollouts.js';
import type { StartContext } from '../per-context.js';
import type { RolloutWork } from './feed.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The PerContext starter: `work()` is the workflows bound to the session as it is now. */
export function rolloutWatches(store: FleetStore, work: () => RolloutWork): StartContext {
  return (context, _session, live) => {
    const w = work();
    const write = (change: (s: RolloutsSlice) => RolloutsSlice) => {
      if (live()) updateSlice(store, 'rollouts', change);
    };
    const own = w.watch(context, {
      onList: (states) => write((s) => rolloutsListed(s, context, states)),
      onState: (state) => write((s) => rolloutChanged(s, context, state)),
      onDeleted: (name) => write((s) => rolloutDeleted(s, context, name)),
      onError: (error) => write((s) => rolloutsFailed(s, context, error)),
    });
    let leases: { stop(): Promise<void> | void } | undefined;
    try {
      leases = w.watchLeases?.(context, {
        onList: (ls) => write((s) => leasesListed(s, context, ls)),
        onChanged: (l) => write((s) => leaseChanged(s, context, l)),
        onDeleted: (l) => write((s) => leaseDeleted(s, context, l)),
        onError: (error) => write((s) => rolloutsFailed(s, context, `Leases: ${error}`)),
      });
    } catch (err) {
      write((s) => rolloutsFailed(s, context, `Leases: ${message(err)}`));
    }
    const navarchos = new AbortController();
    try {
      w.watchNavarchos?.(context, (n) => write((s) => navarchosSeen(s, context, n)), navarchos.signal);
    } catch (err) {
      write((s) => rolloutsFailed(s, context, `Navarchos: ${message(err)}`));
    }
    return () => {
      navarchos.abort();
      void Promise.resolve(own.stop()).catch(() => {});
      if (leases) void Promise.resolve(leases.stop()).catch(() => {});
    };
  };
}

/** The dashboard as the benchmarks draw it: every tab of the registry (its default one, or `tabs`), read-only, into a virtual terminal. */
import type { Instance } from 'ink';
import { gateView } from '../dashboard/gate-view.js';
import { type Registry, registry } from '../dashboard/registry.js';
import { writeGate } from '../kube/transport/gate.js';
import type { renderApp } from '../screens/render.js';
import type { Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';

export interface BenchDashboard {
  store: FleetStore;
  stdout: unknown;
  stdin: unknown;
  kubeconfigFiles?: string[];
  actions?: Actions;
  /** The tabs, when made with options (a read of the fleet); their feeds' actions in `actions`. */
  tabs?: Registry;
}

/** Draws it with `render` (the screens' renderApp, loaded as the command loads it). */
export function benchDashboard(render: typeof renderApp, o: BenchDashboard): Instance {
  return render(
    {
      store: o.store,
      ...(o.tabs ?? registry()),
      ui: { ascii: false, color: true },
      gate: gateView(writeGate(true)),
      kubeconfigFiles: o.kubeconfigFiles ?? [],
      ...(o.actions ? { actions: o.actions } : {}),
      onQuit: () => {},
    },
    { stdout: o.stdout as NodeJS.WritableStream, stdin: o.stdin as NodeJS.ReadableStream },
  );
}

/** The dashboard as the benchmarks draw it: every tab of the registry, read-only, into a virtual terminal. */
import type { Instance } from 'ink';
import { gateView } from '../dashboard/gate-view.js';
import { registry } from '../dashboard/registry.js';
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
}

/** Draws it with `render` (the screens' renderApp, loaded as the command loads it). */
export function benchDashboard(render: typeof renderApp, o: BenchDashboard): Instance {
  return render(
    {
      store: o.store,
      ...registry(),
      ui: { ascii: false, color: true },
      gate: gateView(writeGate(true)),
      kubeconfigFiles: o.kubeconfigFiles ?? [],
      ...(o.actions ? { actions: o.actions } : {}),
      onQuit: () => {},
    },
    { stdout: o.stdout as NodeJS.WritableStream, stdin: o.stdin as NodeJS.ReadableStream },
  );
}

/** The prerequisite checks of one install: its clusters, namespace, HA and the permissions its bundle needs. */
import type { Bundle } from '../bundle-objects.js';
import { requiredPermissions } from '../bundle-permissions.js';
import type { InstallOptions } from '../plan.js';
import { runPrechecks } from './gather.js';

/** The checks of the install `o` describes, with `bundle`'s permissions; each item reported as it moves. */
export function prechecksFor(o: InstallOptions, bundle: Bundle, onProgress?: Parameters<typeof runPrechecks>[1]) {
  return runPrechecks(
    {
      hosting: { name: o.hosting.context, kc: o.hosting.kc },
      workloads: o.workloads.map((w) => ({ name: w.context, kc: w.kc })),
      namespace: o.namespace,
      ha: o.ha,
      topologyKey: o.topologyKey,
      permissions: requiredPermissions(bundle, o.namespace),
    },
    onProgress,
  );
}

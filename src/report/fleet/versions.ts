import type { CheckItem } from '../../checklist/checklist.js';
import type { FleetState } from '../../store/fleet-store.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';

/** "v1.20" from "v1.20.2", "1.20" or "v1.20.5-eks-1"; undefined when it is not a version. */
export function minorVersion(v: string | undefined): string | undefined {
  const m = v?.match(/^v?(\d+)\.(\d+)/);
  return m ? `v${m[1]}.${m[2]}` : undefined;
}

export function versionsItem(state: FleetState, fleet: FleetConfig): CheckItem | undefined {
  if (fleet.workloads.length === 0) return undefined;
  const id = 'workloads/versions';
  const label = 'Kubernetes versions';
  const clusters = state.status.contexts[fleet.controlPlaneContext]?.controlPlane?.clusters ?? [];
  const byMinor = new Map<string, string[]>();
  const unknown: string[] = [];
  let loading = false;
  for (const w of fleet.workloads) {
    const ctx = state.status.contexts[w.context];
    const minor = minorVersion(ctx?.version) ?? minorVersion(clusters.find((c) => c.name === w.clusterName)?.k8sVersion);
    if (minor) {
      const list = byMinor.get(minor) ?? [];
      list.push(w.context);
      byMinor.set(minor, list);
    } else {
      unknown.push(w.context);
      if (ctx?.reachability === 'unknown') loading = true;
    }
  }
  const unknownText = unknown.length ? `unknown: ${unknown.join(', ')}` : '';
  if (byMinor.size === 0) return { id, label, state: loading ? 'pending' : 'warn', detail: loading ? 'loading…' : unknownText };
  const minors = [...byMinor.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  if (minors.length === 1) {
    if (!unknownText) return { id, label, state: 'ok', detail: `consistent (${minors[0]})` };
    return { id, label, state: loading ? 'pending' : 'warn', detail: `${minors[0]}; ${unknownText}` };
  }
  const listed = minors.map((m) => `${m} (${(byMinor.get(m) ?? []).join(', ')})`).join(', ');
  return {
    id,
    label,
    state: 'warn',
    detail: `${listed}${unknownText ? `; ${unknownText}` : ''}`,
    hint: `run the same Kubernetes minor version in every workload cluster, so workloads behave the same wherever Nova places them: upgrade the older ones to ${minors.at(-1)}`,
  };
}

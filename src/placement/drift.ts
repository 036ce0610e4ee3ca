/**
 * Drift: a copy in a workload cluster that no longer matches its control-plane object — edited
 * there (`kubectl scale`, `kubectl set image`). Compared: a pod controller's replicas (against
 * the cluster's share when known) and pod template, a ConfigMap's or Secret's data; the fields
 * a spread's overrides set on purpose are left aside.
 */
import type { ApiObject } from '../kube/api/api-resources.js';
import { applyOverrides, overriddenPaths } from './overrides.js';
import type { PolicyView } from './types.js';

function flatten(v: unknown, path: string, out: Map<string, string>): void {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    if (entries.length === 0) out.set(path, JSON.stringify(v));
    for (const [k, x] of entries) flatten(x, path ? `${path}.${k}` : k, out);
  } else if (v !== undefined) out.set(path, JSON.stringify(v));
}

/** The paths whose values differ, each as `path: want → have`. */
export function differences(want: unknown, have: unknown, prefix: string): string[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  flatten(want, prefix, a);
  flatten(have, prefix, b);
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()]))
    if (a.get(k) !== b.get(k)) out.push(`${k}: ${a.get(k) ?? '(none)'} → ${b.get(k) ?? '(none)'}`);
  return out.sort();
}

type Spec = { replicas?: number; template?: unknown };

export function driftOf(
  source: ApiObject,
  copy: ApiObject,
  share: { replicas?: number; topologyValue?: string } | undefined,
  policy: PolicyView | undefined,
): string[] {
  // A copy of the source only when the overrides change it (most rows have none).
  const want = overriddenPaths(policy, share?.topologyValue).length
    ? (applyOverrides(structuredClone(source) as Record<string, unknown>, policy, share?.topologyValue) as ApiObject)
    : source;
  if (source.kind === 'ConfigMap' || source.kind === 'Secret') return differences(want.data ?? {}, copy.data ?? {}, 'data');
  const ws = want.spec as Spec | undefined;
  const hs = copy.spec as Spec | undefined;
  if (!ws || !hs || !('template' in ws)) return [];
  const out: string[] = [];
  const replicas = share?.replicas ?? (share ? undefined : ws.replicas);
  if (replicas !== undefined && 'replicas' in ws && hs.replicas !== replicas) out.push(`spec.replicas: ${replicas} → ${hs.replicas}`);
  return [...out, ...differences(ws.template, hs.template, 'spec.template')];
}

/**
 * A spread's `overrides`: for the copy sent to one topology value, each parameter's
 * `fieldPath` (dotted, e.g. `spec.replicas` or `spec.template.spec.containers.0.image`) set to
 * its `staticValue`.
 */
import type { PolicyView } from './types.js';

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.').filter(Boolean);
  let at: Record<string, unknown> = obj;
  for (const [i, p] of parts.entries()) {
    if (i === parts.length - 1) {
      at[p] = value;
      return;
    }
    const next = at[p];
    if (typeof next !== 'object' || next === null) at[p] = /^\d+$/.test(parts[i + 1]!) ? [] : {};
    at = at[p] as Record<string, unknown>;
  }
}

/** The field paths the overrides of `topologyValue` set (what drift checks leave aside). */
export function overriddenPaths(policy: PolicyView | undefined, topologyValue: string | undefined): string[] {
  const o = policy?.spreadConstraints?.overrides?.find((x) => x.topologyValue === topologyValue);
  return (o?.parameters ?? []).map((p) => p.fieldPath);
}

export function applyOverrides<T extends object>(obj: T, policy: PolicyView | undefined, topologyValue: string | undefined): T {
  const o = policy?.spreadConstraints?.overrides?.find((x) => x.topologyValue === topologyValue);
  for (const p of o?.parameters ?? []) setPath(obj as Record<string, unknown>, p.fieldPath, p.value?.staticValue);
  return obj;
}

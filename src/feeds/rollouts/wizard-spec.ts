/** What the wizard's answers create: the rollout's spec and name, or a NodeRollout for Navarchos. */
import type { NodeRolloutRequest } from '../../kube/navarchos/objects.js';
import { combineGuards } from '../../rollout/guards/spec-flags.js';
import { generatedName } from '../../rollout/plan.js';
import { DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_HEALTH, type RolloutSpec } from '../../rollout/types.js';
import type { NewRolloutState } from '../../store/rollout-wizard.js';

/** `base`, or `base-2`, `base-3`… when a rollout of that name exists in the context. */
export function uniqueName(base: string, taken: readonly string[]): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** A name for a new rollout of the context: rollout-YYYYMMDD-HHMM, made unique. */
export function newRolloutName(taken: readonly string[], now: Date = new Date()): string {
  return uniqueName(generatedName(now), taken);
}

/** The rollout the wizard's answers describe, with the defaults of `fleetdeck rollout create` for the rest (guard rails: none set, as with no flag). */
export function specFrom(state: NewRolloutState, name: string): RolloutSpec {
  return {
    name,
    context: state.context ?? '',
    nodeSelectors: state.selectors.map((s) => ({ ...s })),
    nodeNames: state.names.map((n) => ({ ...n })),
    maxUnavailable: state.maxUnavailable,
    replace: state.replace,
    drain: { force: state.force, deleteEmptyDirData: state.deleteEmptyDirData, timeoutMs: DEFAULT_DRAIN_TIMEOUT_MS },
    health: { ...DEFAULT_HEALTH },
    guards: state.guards ?? combineGuards(undefined, {}),
  };
}

/** The NodeRollout the answers describe (Navarchos picks its own drain settings). */
export function nodeRolloutFrom(state: NewRolloutState): NodeRolloutRequest {
  return {
    nodeSelectors: state.selectors.map((s) => ({ selector: s.selector, priority: s.priority })),
    nodeNames: state.names.map((n) => ({ ...n })),
  };
}

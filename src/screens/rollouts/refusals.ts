import { actionKey, type RolloutsSlice } from '../../store/rollouts.js';
import type { RolloutRef } from './rows.js';

/** Why `r` does nothing (besides --read-only, which its key's mark refuses) on this rollout, or undefined when it resumes. */
export function resumeRefusal(slice: RolloutsSlice, ref: RolloutRef): string | undefined {
  if (ref.kind === 'navarchos') return 'the Navarchos controller drives this rollout: fleetdeck does not resume it';
  const state = slice.byContext[ref.context]?.rollouts[ref.name];
  if (!state) return 'its state has not arrived yet';
  if (state.phase === 'Completed' || state.phase === 'Aborted') return `${ref.name} is ${state.phase}: there is nothing to resume`;
  const action = slice.actions[actionKey(ref.context, ref.name)];
  if (action?.state === 'running' && (action.kind === 'run' || action.kind === 'resume')) return 'it runs here already';
  return undefined;
}

/** Why `a` does nothing (besides --read-only, which its key's mark refuses) on this rollout, or undefined when it asks to abort. */
export function abortRefusal(slice: RolloutsSlice, ref: RolloutRef): string | undefined {
  if (ref.kind === 'navarchos') return 'the Navarchos controller drives this rollout: fleetdeck does not abort it';
  const state = slice.byContext[ref.context]?.rollouts[ref.name];
  if (!state) return 'its state has not arrived yet';
  if (state.phase === 'Completed') return `${ref.name} is Completed: there is nothing to abort`;
  const action = slice.actions[actionKey(ref.context, ref.name)];
  if (action?.state === 'running' && action.kind === 'abort') return 'aborting already';
  return undefined;
}

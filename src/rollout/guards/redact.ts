/**
 * A rollout as printed (`-o json|yaml`): the webhook's URL shortened to its host, the alert gate's
 * without credentials or query — both may carry a token. The record in the cluster keeps them whole
 * (the runner needs them).
 */
import type { RolloutSpec, RolloutState } from '../types.js';
import { shownUrl } from './alerts.js';
import { redactUrl } from './notify.js';

/** An alert gate's URL as printed: no credentials, no query of the user's. */
export const shownAlertUrl = (url: string) => {
  try {
    return shownUrl(new URL(url));
  } catch {
    return '(a URL that does not parse)';
  }
};

export function redactedSpec(spec: RolloutSpec): RolloutSpec {
  const g = spec.guards;
  if (!g?.notify && !g?.alerts) return spec;
  return {
    ...spec,
    guards: {
      ...g,
      ...(g.notify ? { notify: { ...g.notify, url: redactUrl(g.notify.url) } } : {}),
      ...(g.alerts ? { alerts: { ...g.alerts, url: shownAlertUrl(g.alerts.url) } } : {}),
    },
  };
}

export const redactedState = (state: RolloutState): RolloutState => ({ ...state, spec: redactedSpec(state.spec) });

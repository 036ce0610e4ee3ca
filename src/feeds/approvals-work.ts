/**
 * The approvals feed's calls bound to the session's KubeConfigs, from the same library as
 * `fleetdeck approve`: watchCsrs for the live list with its warnings, decide() for approve and
 * deny (the approval subresource). Loaded (its own chunk) when the panel is first opened.
 */
import { describeError } from '../kube/transport/client.js';
import { decide, watchCsrs } from '../kube/csr/index.js';
import { withMissingPermission } from '../kube/transport/forbidden.js';
import type { Session } from '../session/session.js';
import type { ApprovalsWork } from './approvals.js';

/** The calls on the session's clusters. */
export function approvalsWork(session: Pick<Session, 'kc'>): ApprovalsWork {
  const kc = (context: string) => session.kc(context);
  return {
    watch: (context, onChange, onError) => {
      const w = watchCsrs(kc(context), { onChange, onError: (message) => onError(withMissingPermission(message)) });
      return () => void w.stop();
    },
    decide: async (context, name, decision) => {
      const verb = decision === 'Approved' ? 'approved' : 'denied';
      try {
        return (await decide(kc(context), name, decision, `${verb} with the fleetdeck dashboard`)).line;
      } catch (err) {
        // A refusal names the permission it lacks, so the panel can keep it in sight.
        return withMissingPermission(`${name}: not ${verb}: ${describeError(err)}`);
      }
    },
  };
}

/**
 * The Approvals panel's link to the clusters (ApprovalsDeps), from the same library as
 * `fleetdeck approve`: watchCsrs for the live list with its warnings, decide() for approve and
 * deny (the approval subresource). Loaded (its own chunk) when the panel is first opened.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/client.js';
import { decide, watchCsrs } from '../kube/csr.js';
import { configForContext } from '../kube/kubeconfig.js';
import type { ApprovalsDeps } from '../screens/approvals/deps.js';

/** `config()` is the dashboard's kubeconfig as it is now (a sandbox started from the dashboard changes it). */
export function approvalsDeps(config: () => KubeConfig): ApprovalsDeps {
  const kcFor = (context: string) => configForContext(config(), context);
  const decideLine = async (context: string, name: string, decision: 'Approved' | 'Denied') => {
    try {
      return (await decide(kcFor(context), name, decision, `${decision === 'Approved' ? 'approved' : 'denied'} with the fleetdeck dashboard`)).line;
    } catch (err) {
      return `${name}: not ${decision === 'Approved' ? 'approved' : 'denied'}: ${describeError(err)}`;
    }
  };
  return {
    watch: (context, onChange, onError) => {
      const w = watchCsrs(kcFor(context), { onChange, ...(onError ? { onError } : {}) });
      return () => void w.stop();
    },
    approve: (context, name) => decideLine(context, name, 'Approved'),
    deny: (context, name) => decideLine(context, name, 'Denied'),
  };
}

/** The rollouts recorded in one cluster, by name, for completion: read only, within a deadline, no terminal for credential plugins. */
import { setPluginTerminal } from '../kube/transport/credentials.js';
import { setRequestTimeout } from '../kube/transport/request-timeout.js';
import { listRollouts } from '../rollout/state.js';
import { startSession } from '../session/session.js';

export async function listRolloutNames(kubeconfig: string | undefined, context: string | undefined, deadlineMs: number): Promise<string[]> {
  // A credential plugin must not ask anything: the shell is waiting for candidates.
  setPluginTerminal(() => false, 'completing a command line');
  setRequestTimeout(deadlineMs);
  const session = startSession({ ...(kubeconfig ? { kubeconfig } : {}), ...(context ? { context: [context] } : {}) });
  const { kc } = session.one('completion');
  return (await listRollouts(kc)).map((r) => r.spec.name);
}

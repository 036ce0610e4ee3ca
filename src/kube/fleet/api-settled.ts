/**
 * The control plane's API answering through its load balancer, and settled: /readyz answered
 * ready `inARow` times in a row, `intervalMs` apart (a member that just came back — etcd catching
 * up, leader elections — has settled before the next step). Used between the steps of a
 * certificate renewal and of an upgrade.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, makeJsonClient } from '../transport/client.js';
import { notReadyReason } from '../api/discovery.js';

export interface ApiSettledOptions {
  /** Ready answers needed in a row (default 1). */
  inARow?: number;
  timeoutMs: number;
  intervalMs?: number;
  signal?: AbortSignal;
}

/** One poll: undefined when /readyz answers ready (or cannot tell), else the one-line reason. */
async function notAnswering(kc: KubeConfig): Promise<string | undefined> {
  try {
    const why = await notReadyReason(makeJsonClient(kc, 5_000));
    return why ? `not ready: ${why}` : undefined;
  } catch (err) {
    return describeError(err);
  }
}

/**
 * Polls until the API has answered ready `inARow` times in a row. At the deadline it resolves
 * when the last answer was ready (up, if not yet steady), else throws an Error with the last reason.
 */
export async function waitApiSettled(kc: KubeConfig, opts: ApiSettledOptions): Promise<void> {
  const inARow = opts.inARow ?? 1;
  const interval = opts.intervalMs ?? 1000;
  const deadline = Date.now() + opts.timeoutMs;
  let row = 0;
  for (;;) {
    opts.signal?.throwIfAborted();
    const why = await notAnswering(kc);
    row = why === undefined ? row + 1 : 0;
    if (row >= inARow) return;
    if (Date.now() + interval > deadline) {
      if (row > 0) return;
      throw new Error(why ?? 'no answer');
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * The gate between batches, Navarchos' health rule: every node Ready and no Pending pod,
 * passed `passes` times in a row, `intervalMs` apart, within `timeoutMs`. The nodes and the
 * Pending pods come from two watches; the checks read what they hold (the first one as soon as
 * both listed).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { watchNodeReadiness } from '../../kube/nodes/nodes.js';
import { watchPendingPods, type PodObject } from '../../kube/pods/pod-ops.js';
import { abortable, abortReason, sleep } from '../abortable.js';
import type { RolloutSpec } from '../types.js';
import { gateCount, healthVerdict } from './decide.js';

export interface GateResult {
  ok: boolean;
  detail: string;
}

type Health = RolloutSpec['health'];

/** The two watches and what they hold now. */
function watchGate(kc: KubeConfig) {
  let nodes: ReadonlyMap<string, boolean> = new Map();
  const pending = new Map<string, string>();
  const state = { lastError: undefined as string | undefined, nodesListed: false, podsListed: false };
  let onListed: () => void = () => {};
  const bothListed = new Promise<void>((resolve) => (onListed = resolve));
  const listed = () => state.nodesListed && state.podsListed && onListed();
  const key = (p: PodObject) => `${p.metadata?.namespace}/${p.metadata?.name}`;
  const nodeWatch = watchNodeReadiness(kc, {
    onChange: (ready, first) => {
      nodes = ready;
      state.nodesListed ||= first;
      listed();
    },
    onError: (m) => (state.lastError = `watching nodes: ${m}`),
  });
  const podWatch = watchPendingPods(kc, {
    onList: (items) => {
      pending.clear();
      for (const p of items) pending.set(p.metadata?.uid ?? '', key(p));
      state.podsListed = true;
      listed();
    },
    onEvent: (type, p) => {
      // Leaving Pending arrives as DELETED for a field-selected watch.
      if (type === 'DELETED' || p.status?.phase !== 'Pending') pending.delete(p.metadata?.uid ?? '');
      else pending.set(p.metadata?.uid ?? '', key(p));
    },
    onError: (m) => (state.lastError = `watching pods: ${m}`),
  });
  nodeWatch.start();
  podWatch.start();
  return {
    bothListed,
    verdict: () =>
      healthVerdict(
        [...nodes].map(([name, ready]) => ({ name, ready })),
        [...pending.values()],
      ),
    lastError: () => state.lastError,
    stop: () => Promise.all([nodeWatch.stop(), podWatch.stop()]),
  };
}

/** The checks, `intervalMs` apart, until enough pass in a row or the deadline comes; `last` keeps the latest verdict. */
async function checks(
  w: ReturnType<typeof watchGate>,
  health: Health,
  signal: AbortSignal,
  deadline: number,
  last: { v: GateResult },
  onCheck?: (r: GateResult & { inARow: number }) => void,
): Promise<GateResult> {
  let inARow = 0;
  for (;;) {
    const v = w.verdict();
    const lastError = w.lastError();
    last.v = v.ok ? v : { ok: false, detail: lastError ? `${v.detail} (last error: ${lastError})` : v.detail };
    inARow = gateCount(inARow, v.ok);
    onCheck?.({ ...last.v, inARow });
    if (inARow >= Math.max(1, health.passes))
      return { ok: true, detail: `${v.detail}, ${inARow} check${inARow === 1 ? '' : 's'} in a row` };
    if (Date.now() + health.intervalMs > deadline) return { ok: false, detail: last.v.detail };
    await sleep(health.intervalMs, signal);
  }
}

/** Runs the gate. Resolves with its verdict (a timeout is a failed verdict); rejects with the signal's reason. */
export async function healthGate(
  kc: KubeConfig,
  health: Health,
  signal: AbortSignal,
  onCheck?: (r: GateResult & { inARow: number }) => void,
): Promise<GateResult> {
  const w = watchGate(kc);
  const deadline = Date.now() + health.timeoutMs;
  const last = { v: { ok: false, detail: 'nodes and pods not listed yet' } };
  const timeout = new AbortController();
  const t = setTimeout(() => timeout.abort(new Error('gate timeout')), health.timeoutMs);
  const both = AbortSignal.any([signal, timeout.signal]);
  try {
    await abortable(w.bothListed, both);
    return await checks(w, health, both, deadline, last, onCheck);
  } catch (err) {
    if (signal.aborted) throw abortReason(signal);
    if (timeout.signal.aborted) return { ok: false, detail: last.v.detail };
    throw err;
  } finally {
    clearTimeout(t);
    await w.stop();
  }
}

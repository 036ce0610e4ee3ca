/** The logs feed's work bound to a session's KubeConfigs: pods found and watched, Events listed, logs streamed (src/kube). */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/transport/client.js';
import { listObjectEvents } from '../kube/events/object-events.js';
import { streamPodLog } from '../kube/pods/pod-logs.js';
import { parseSelector, selectorMatches } from '../kube/api/selector.js';
import { listLogPods, watchLogPods, type LogPod, type PodQuery } from '../kube/pods/workloads.js';
import type { Session } from '../session/session.js';
import type { LogsWork } from './logs-contract.js';

/** One line for any failure (the API's own message, e.g. `container "x" … is waiting to start`). */
const oneLine = (err: unknown) => new Error(describeError(err));

/** The queries of a target: one per named pod (those of them the selector matches, when it has one), else the selector's. */
function queries({ pods, selector }: { pods?: string[]; selector?: string }): PodQuery[] {
  if (pods?.length) {
    const reqs = selector ? parseSelector(selector) : undefined;
    const match = reqs ? (labels: Readonly<Record<string, string>>) => selectorMatches(reqs, labels) : undefined;
    return pods.map((name) => ({ name, ...(match ? { match } : {}) }));
  }
  return selector !== undefined ? [{ labelSelector: selector }] : [];
}

export function logsWork(session: Pick<Session, 'kc'>): LogsWork {
  const kc = (context: string): KubeConfig => session.kc(context);
  return {
    async findPods(context, namespace, target) {
      try {
        const found: LogPod[] = [];
        for (const q of queries(target)) found.push(...(await listLogPods(kc(context), namespace, q)));
        return found;
      } catch (err) {
        throw oneLine(err);
      }
    },
    watchPods(context, namespace, target, handlers) {
      const watches = queries(target).map((q) => watchLogPods(kc(context), namespace, q, handlers));
      return { stop: () => Promise.all(watches.map((w) => w.stop())).then(() => {}) };
    },
    async events(context, namespace, kind, name) {
      try {
        return await listObjectEvents(kc(context), namespace, kind, name);
      } catch (err) {
        throw oneLine(err);
      }
    },
    async stream(context, namespace, pod, opts, onEntry, signal) {
      try {
        await streamPodLog(kc(context), namespace, pod, opts, onEntry, signal);
      } catch (err) {
        throw oneLine(err);
      }
    },
  };
}

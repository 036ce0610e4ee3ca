/** The logs feed's work bound to a session's KubeConfigs: pods found and watched, Events listed, logs streamed (src/kube). */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../kube/client.js';
import { listLogPods, listObjectEvents, readLogPod, watchLogPods, type LogPod } from '../kube/log-pods.js';
import { streamPodLog } from '../kube/pod-logs.js';
import { parseSelector, selectorMatches } from '../kube/selector.js';
import type { LogsWork } from './logs-contract.js';

/** One line for any failure (the API's own message, e.g. `container "x" … is waiting to start`). */
const oneLine = (err: unknown) => new Error(describeError(err));

export function logsWork(kc: (context: string) => KubeConfig): LogsWork {
  return {
    async findPods(context, namespace, { pods, selector }) {
      try {
        if (pods?.length) {
          const reqs = selector ? parseSelector(selector) : undefined;
          const found: LogPod[] = [];
          for (const name of pods) {
            const p = await readLogPod(kc(context), namespace, name);
            if (p && (!reqs || selectorMatches(reqs, p.labels))) found.push(p.pod);
          }
          return found;
        }
        if (selector !== undefined) return await listLogPods(kc(context), namespace, selector);
        return [];
      } catch (err) {
        throw oneLine(err);
      }
    },
    watchPods(context, namespace, selector, onPod, onError) {
      const w = watchLogPods(kc(context), namespace, selector, onPod, onError);
      w.start();
      return { stop: () => w.stop() };
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

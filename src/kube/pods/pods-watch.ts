/**
 * The pods of a context, live: a watch on all pods feeding a PodTracker (pods.ts). The initial
 * list is asked for in protobuf and reduced to entries as it arrives (protobuf/pod-entry.ts).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { makeJsonClient } from '../transport/client.js';
import { listProtoPaged, type Tracker, trackedWatch } from '../watch/list.js';
import { emptyPods, podEntry, PodTracker, slimPod, type PodEntry, type PodsSummary } from './pods.js';
import { decodePodEntry } from '../protobuf/pod-entry.js';
import type { WatcherFactory } from '../watch/watcher.js';

/**
 * Cluster-wide pod summaries: counts by phase and the pods needing attention, live from a watch
 * on all pods. A burst of events yields one summary per store flush.
 */
export const watchPods: WatcherFactory = (env) => {
  const client = makeJsonClient(env.kc, env.requestTimeoutMs);
  const pods = new PodTracker();
  // A full list is reduced to keys and states as it arrives: 50,000 pods are never held as objects.
  const tracker: Tracker<V1Pod, PodsSummary, PodEntry> = {
    reset: (entries) => pods.resetEntries(entries),
    apply: (type, pod) => pods.apply(type, pod),
    clear: () => pods.clear(),
    summary: () => pods.summary(),
  };
  return trackedWatch<V1Pod, 'pods', PodEntry>(env, {
    slice: 'pods',
    resource: 'pods',
    path: '/api/v1/pods',
    list: () =>
      listProtoPaged(client, '/api/v1/pods', {}, decodePodEntry, (pod: V1Pod) => podEntry(slimPod(pod)), {
        watchCache: true,
      }),
    tracker,
    empty: emptyPods,
  });
};

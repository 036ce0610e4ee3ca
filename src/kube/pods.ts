import type { WatcherFactory } from './monitor.js';

/** Cluster-wide pod summaries (counts by phase, pods needing attention). */
export const watchPods: WatcherFactory = () => ({ start() {}, stop: async () => {}, retryNow() {} });

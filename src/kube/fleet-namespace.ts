import type { WatcherFactory } from './monitor.js';

/** The fleet namespace of a hosting or workload context: workloads, component pods, services, certificates. */
export function watchFleetNamespace(_namespace: string, _role: 'hosting' | 'workload'): WatcherFactory {
  return () => ({ start() {}, stop: async () => {}, retryNow() {} });
}

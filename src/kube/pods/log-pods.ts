/**
 * The log view's rules over the pods workloads.ts reads: which container a pod shows first, and
 * whether a container's previous instance is the log worth reading first.
 */
import type { LogContainerStatus, LogPod } from './workloads.js';

/** A pod's containers as the view cycles through them: app containers in spec order, then init containers. */
export const podContainers = (pod: LogPod): string[] => [...pod.containers, ...pod.initContainers];

/** A container's restarts (0 before it has a status). */
export const restartsOf = (pod: LogPod, container: string): number => pod.statuses[container]?.restarts ?? 0;

/** The container kubectl would pick: the default-container annotation's when it names one of the pod's, else the first. */
export function defaultContainer(pod: LogPod): string {
  const wanted = pod.defaultContainer;
  return wanted && pod.containers.includes(wanted) ? wanted : (pod.containers[0] ?? '');
}

/** The container restarted and is not running now (CrashLoopBackOff, or ended after an earlier run): its crash is worth reading first. */
export function prefersPrevious(s: LogContainerStatus | undefined): boolean {
  return !!s && s.restarts > 0 && (s.reason === 'CrashLoopBackOff' || s.state !== 'running');
}

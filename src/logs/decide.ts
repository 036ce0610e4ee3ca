/**
 * The follow's decisions, pure: when a container's log is opened, and what happens when a
 * followed stream ends (a new instance read from its start, the same one resumed, or a wait).
 */
import type { LogContainerStatus, LogPod } from '../kube/pods/workloads.js';

/** A container instance: the runtime's id (which a container waiting to restart keeps: its last run's), else the restart count. */
export const instanceOf = (s: LogContainerStatus): string => s.containerID || `#${s.restarts}`;

/** A container that has a log to read: running, or ended after it started (a crash loop's last run). */
export function hasLog(s: LogContainerStatus | undefined): s is LogContainerStatus {
  return !!s && (s.state !== 'waiting' || s.containerID !== '' || s.restarts > 0);
}

/**
 * A container read before shows an instance not read yet: one that ran since, even if it already
 * crashed and waits to restart (its log is that run's). Without a runtime id, a waiting container
 * cannot say which run it stands for: only a running or ended one counts.
 */
export function isNewInstance(s: LogContainerStatus | undefined, read: string): boolean {
  if (!hasLog(s) || instanceOf(s) === read) return false;
  return s.containerID !== '' || s.state !== 'waiting';
}

export type AfterEnd = 'from-start' | 'resume' | 'wait' | 'gone';

/** A followed stream ended by itself; `pod` as last seen, `read` the instance it read. */
export function afterEnd(pod: LogPod | undefined, container: string, read: string): AfterEnd {
  const s = pod?.statuses[container];
  if (!pod || !s) return 'gone';
  if (isNewInstance(s, read)) return 'from-start';
  // The connection dropped while the container runs on: continue after the last line.
  if (s.state === 'running' && !pod.finished) return 'resume';
  return pod.finished ? 'gone' : 'wait';
}

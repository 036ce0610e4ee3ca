/**
 * Which containers of a pod are read: kubectl's rules for one named pod, stern's for a set of
 * pods (a workload, a selector, the fleet).
 */
import { UserError } from '../errors.js';
import type { LogPod } from '../kube/pods/workloads.js';

export interface ContainerChoice {
  /** -c NAME */
  container?: string;
  /** --all-containers: init containers that ran, then every container. */
  allContainers?: boolean;
  /**
   * The target named one pod (pod/NAME): several containers without -c and without a default
   * are an error, as in kubectl. Otherwise (several pods) every container is read, as stern does.
   */
  onePod: boolean;
}

/** An init container that started (running, finished or restarted): it has a log. */
function ran(pod: LogPod, name: string): boolean {
  const s = pod.statuses[name];
  return !!s && (s.state !== 'waiting' || s.restarts > 0 || s.containerID !== '');
}

const list = (names: readonly string[]) => `[${names.join(' ')}]`;

/** The containers of `pod` to read; [] when -c names a container this pod (of several) lacks. */
export function chooseContainers(pod: LogPod, c: ContainerChoice): string[] {
  const all = [...pod.initContainers, ...pod.containers];
  if (c.container !== undefined) {
    if (all.includes(c.container)) return [c.container];
    if (c.onePod) throw new UserError(missingContainer(c.container, [pod]));
    return [];
  }
  if (c.allContainers) return [...pod.initContainers.filter((n) => ran(pod, n)), ...pod.containers];
  if (pod.containers.length === 1) return [pod.containers[0]!];
  if (pod.defaultContainer && all.includes(pod.defaultContainer)) return [pod.defaultContainer];
  if (c.onePod) {
    throw new UserError(
      `a container name must be specified for pod ${pod.name}, choose one of: ${list(pod.containers)} (-c NAME, or --all-containers)`,
    );
  }
  return [...pod.containers];
}

/** The one line when -c names a container no selected pod has: the containers they do have. */
export function missingContainer(container: string, pods: readonly LogPod[]): string {
  const names = [...new Set(pods.flatMap((p) => [...p.initContainers, ...p.containers]))];
  const which = pods.length === 1 ? `pod ${pods[0]!.name}` : `the ${pods.length} pods`;
  return `container ${container} is not valid for ${which}; it has: ${list(names)}`;
}

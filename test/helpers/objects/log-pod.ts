import type { LogContainerStatus, LogPod } from '../../../src/kube/pods/workloads.js';

/** A container of logPod: its name, and what its status says (running, never restarted, unless told). */
export interface ContainerSpec extends Partial<LogContainerStatus> {
  name: string;
}

/** A pod as workloads.ts summarises it, running the given containers (then `init` containers, finished). */
export function logPod(name: string, containers: ContainerSpec[], more: Partial<LogPod> & { init?: string[] } = {}): LogPod {
  const { init = [], ...rest } = more;
  const status = (c: ContainerSpec): LogContainerStatus => ({
    restarts: c.restarts ?? 0,
    containerID: c.containerID ?? `containerd://${name}-${c.name}-${c.restarts ?? 0}`,
    state: c.state ?? 'running',
    ...(c.reason ? { reason: c.reason } : {}),
  });
  return {
    namespace: 'ns',
    name,
    uid: `uid-${name}`,
    labels: {},
    containers: containers.map((c) => c.name),
    initContainers: init,
    statuses: Object.fromEntries([
      ...containers.map((c) => [c.name, status(c)]),
      ...init.map((n) => [n, status({ name: n, state: 'terminated' })]),
    ]),
    deleting: false,
    finished: false,
    ...rest,
  };
}

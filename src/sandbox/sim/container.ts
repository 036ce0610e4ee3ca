import { createHash } from 'node:crypto';
import type { CoreV1Api, V1Container, V1ContainerStateTerminated, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { SandboxRuntime, SimContext } from './context.js';
import type { ClusterNetwork } from './network.js';
import type { MountMapping } from './processes.js';

/** What a pod that runs for real needs from the kubelet that runs it. */
export interface RealPodDeps {
  ctx: SimContext;
  runtime: SandboxRuntime;
  network: ClusterNetwork;
  core: CoreV1Api;
  /** The pod's status should be reported again (something changed). */
  onChange: () => void;
}

/** What a container uses of its pod (see RealPod). */
export interface PodHandle {
  readonly uid: string;
  /** `namespace/name`. */
  readonly key: string;
  /** The pod's directory in the sandbox. */
  readonly dir: string;
  /** The pod's own loopback address. */
  readonly ip: string;
  readonly deps: RealPodDeps;
  /** The latest pod object. */
  readonly spec: V1Pod;
  /** Something its status reports changed. */
  changed(): void;
  /** Volumes, environment and mount mapping of one container, read afresh from the API. */
  prepare(c: V1Container): Promise<{ env: Record<string, string>; expand: (s: string) => string; mounts: MountMapping[] }>;
  /** Records an event on the pod, as the kubelet would. */
  event(container: string, type: 'Normal' | 'Warning', reason: string, message: string, component?: string): Promise<void>;
  log(line: string): void;
}

export function imageID(image: string): string {
  return `${image.split('@')[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

/** RFC 3339 with seconds, as Kubernetes writes times. */
export function rfc3339(d = new Date()): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

type ContainerState = 'creating' | 'running' | 'backoff' | 'terminated';

/** One container the sandbox runs (a process or the in-process agent) and what its status reports. */
export abstract class RealContainer {
  state: ContainerState = 'creating';
  ready = false;
  everStarted = false;
  restartCount = 0;
  startedAt: Date | undefined;
  lastTerminated: V1ContainerStateTerminated | undefined;
  waiting: { reason: string; message: string } = { reason: 'ContainerCreating', message: '' };

  constructor(
    protected readonly pod: PodHandle,
    protected readonly spec: V1Container,
  ) {}

  abstract start(): void;
  abstract stop(graceMs: number): Promise<void>;

  /** The runtime's id of the instance started last: a new one for every start, as a container runtime gives. */
  protected get containerID(): string {
    const started = this.startedAt ? `-${this.startedAt.getTime().toString(36)}` : '';
    return `sandbox://${this.pod.uid}-${this.spec.name}${started}`;
  }

  status(): V1ContainerStatus {
    const base: V1ContainerStatus = {
      name: this.spec.name,
      image: this.spec.image ?? '',
      imageID: imageID(this.spec.image ?? ''),
      ready: this.ready,
      started: this.state === 'running',
      restartCount: this.restartCount,
    };
    if (this.lastTerminated) base.lastState = { terminated: this.lastTerminated };
    if (this.state === 'running')
      return { ...base, containerID: this.containerID, state: { running: { startedAt: this.startedAt ?? new Date() } } };
    if (this.state === 'terminated' && this.lastTerminated) {
      return { ...base, containerID: this.containerID, lastState: undefined, state: { terminated: this.lastTerminated } };
    }
    return { ...base, state: { waiting: { reason: this.waiting.reason, message: this.waiting.message || undefined } } };
  }
}

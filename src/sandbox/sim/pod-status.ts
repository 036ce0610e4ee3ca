import type { CoreV1Api, V1Container, V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { imageID } from './container.js';
import { pullable, unpullableImage } from './images.js';
import type { RealPod } from './real-pod.js';

/**
 * Annotation that makes the simulated kubelet report a failure instead of Running/Ready, the
 * way a real kubelet would: `CrashLoopBackOff` (container restarting), `ImagePullBackOff`
 * (image cannot be pulled; pod stays Pending) or `NotReady` (running, readiness failing).
 */
export const FAULT_ANNOTATION = 'sandbox.fleetdeck.io/fault';
export type Fault = 'CrashLoopBackOff' | 'ImagePullBackOff' | 'NotReady';
const FAULTS: readonly string[] = ['CrashLoopBackOff', 'ImagePullBackOff', 'NotReady'];

/** The failure the pod shows: the one FAULT_ANNOTATION asks for, else ImagePullBackOff when an image cannot be pulled (images.ts). */
export function faultOf(pod: V1Pod): Fault | undefined {
  const f = pod.metadata?.annotations?.[FAULT_ANNOTATION];
  if (f && FAULTS.includes(f)) return f as Fault;
  return unpulled(pod) === undefined ? undefined : 'ImagePullBackOff';
}

/** The pod's first image (init containers first) the sandbox cannot pull. */
export function unpulled(pod: V1Pod): string | undefined {
  return unpullableImage([...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]);
}

/** What the pod's status reports now, in the same terms. */
export function reported(pod: V1Pod): Fault | 'Running' | undefined {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  const reasons = statuses.map((c) => c.state?.waiting?.reason);
  for (const waiting of ['ImagePullBackOff', 'CrashLoopBackOff'] as const) if (reasons.includes(waiting)) return waiting;
  if (pod.status?.phase !== 'Running') return undefined;
  const ready = pod.status.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  return ready ? 'Running' : 'NotReady';
}

export function isTerminal(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

const containerID = (uid: string, c: V1Container) => `sandbox://${uid}-${c.name}`;

/** A container the simulated runtime started: running and ready. */
function runningStatus(uid: string, c: V1Container, now: Date): V1ContainerStatus {
  return {
    name: c.name,
    image: c.image ?? '',
    imageID: imageID(c.image ?? ''),
    containerID: containerID(uid, c),
    ready: true,
    started: true,
    restartCount: 0,
    state: { running: { startedAt: now } },
  };
}

/** An init container that ran to completion. */
function completedStatus(uid: string, c: V1Container, now: Date): V1ContainerStatus {
  return {
    name: c.name,
    image: c.image ?? '',
    imageID: imageID(c.image ?? ''),
    containerID: containerID(uid, c),
    ready: true,
    restartCount: 0,
    state: {
      terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now, containerID: containerID(uid, c) },
    },
  };
}

/** A container failing as FAULT_ANNOTATION asks. */
function failingStatus(pod: V1Pod, c: V1Container, fault: Fault, now: Date): V1ContainerStatus {
  const uid = pod.metadata?.uid ?? '';
  const base = runningStatus(uid, c, now);
  if (fault === 'NotReady') return { ...base, ready: false };
  if (fault === 'ImagePullBackOff') {
    return {
      ...base,
      ready: false,
      started: false,
      imageID: '',
      containerID: undefined,
      state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image ?? ''}"` } },
    };
  }
  return {
    ...base,
    ready: false,
    started: false,
    restartCount: 5,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off 5m0s restarting failed container=${c.name} pod=${pod.metadata?.name ?? ''}`,
      },
    },
    lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: now, finishedAt: now, containerID: containerID(uid, c) } },
  };
}

/** One container's status: failing as the pod's fault says; with a pull failure, only a container whose image it is. */
function containerStatus(pod: V1Pod, c: V1Container, fault: Fault | undefined, now: Date): V1ContainerStatus {
  const uid = pod.metadata?.uid ?? '';
  if (!fault) return runningStatus(uid, c, now);
  const pullOnly = fault === 'ImagePullBackOff' && !pod.metadata?.annotations?.[FAULT_ANNOTATION];
  if (pullOnly && pullable(c.image ?? '')) return { ...runningStatus(uid, c, now), ready: false };
  return failingStatus(pod, c, fault, now);
}

/**
 * The status a kubelet reports once it started the pod at `podIP` on the node at `hostIP`: what
 * the pod's real containers do (`real`), or Running and Ready, or failing as FAULT_ANNOTATION asks.
 * Conditions already true (or false) keep their transition times.
 */
export function podStatus(pod: V1Pod, hostIP: string, podIP: string, real?: RealPod): V1PodStatus {
  const uid = pod.metadata?.uid ?? '';
  const now = new Date();
  const old = pod.status ?? {};
  const oldConditions = old.conditions ?? [];
  const condition = (type: string): V1PodCondition =>
    oldConditions.find((c) => c.type === type && c.status === 'True') ?? { type, status: 'True', lastTransitionTime: now };
  const notReadyAt = (type: string): V1PodCondition =>
    oldConditions.find((c) => c.type === type && c.status === 'False') ?? {
      type,
      status: 'False',
      lastTransitionTime: now,
      reason: 'ContainersNotReady',
    };
  const initContainers = pod.spec?.initContainers ?? [];
  const fault = real ? undefined : faultOf(pod);
  const ready = real ? real.ready() : !fault;
  const status: V1PodStatus = {
    ...old,
    phase: real ? real.phase() : fault === 'ImagePullBackOff' ? 'Pending' : 'Running',
    conditions: ready
      ? [condition('Initialized'), condition('Ready'), condition('ContainersReady'), condition('PodScheduled')]
      : [condition('Initialized'), notReadyAt('Ready'), notReadyAt('ContainersReady'), condition('PodScheduled')],
    hostIP,
    podIP,
    podIPs: [{ ip: podIP }],
    startTime: old.startTime ?? now,
    containerStatuses: (pod.spec?.containers ?? []).map((c) => real?.status(c) ?? containerStatus(pod, c, fault, now)),
  };
  // An init container whose image cannot be pulled waits on it, and the containers after it wait for it (Init:ImagePullBackOff).
  const initBlocked = !real && unpullableImage(initContainers) !== undefined;
  if (initContainers.length > 0)
    status.initContainerStatuses = initContainers.map((c) =>
      initBlocked && !pullable(c.image ?? '') ? failingStatus(pod, c, 'ImagePullBackOff', now) : completedStatus(uid, c, now),
    );
  if (initBlocked)
    status.containerStatuses = (pod.spec?.containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      ready: false,
      started: false,
      restartCount: 0,
      state: { waiting: { reason: 'PodInitializing' } },
    }));
  return status;
}

/** The events a kubelet records for the failure (a pull: Pulling, Failed, ErrImagePull, BackOff, ImagePullBackOff), so event views see it as they would. */
export async function recordFault(core: CoreV1Api, pod: V1Pod, fault: Fault, log: (line: string) => void): Promise<void> {
  const image = unpulled(pod);
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  const container = (image === undefined ? undefined : all.find((c) => c.image === image)) ?? pod.spec?.containers?.[0];
  const pulling = image ?? container?.image ?? '';
  const events: [type: string, reason: string, message: string][] =
    fault === 'CrashLoopBackOff'
      ? [['Warning', 'BackOff', `Back-off restarting failed container ${container?.name ?? ''} in pod ${pod.metadata?.name ?? ''}`]]
      : fault === 'ImagePullBackOff'
        ? [
            ['Normal', 'Pulling', `Pulling image "${pulling}"`],
            [
              'Warning',
              'Failed',
              `Failed to pull image "${pulling}": rpc error: code = NotFound desc = failed to pull and unpack image "${pulling}": not found`,
            ],
            ['Warning', 'Failed', 'Error: ErrImagePull'],
            ['Normal', 'BackOff', `Back-off pulling image "${pulling}"`],
            ['Warning', 'Failed', 'Error: ImagePullBackOff'],
          ]
        : [['Warning', 'Unhealthy', 'Readiness probe failed: connection refused']];
  for (const [i, [type, reason, message]] of events.entries()) await recordEvent(core, pod, container, { type, reason, message, i }, log);
}

/** One Event about `container` of `pod`, from the kubelet. */
async function recordEvent(
  core: CoreV1Api,
  pod: V1Pod,
  container: V1Container | undefined,
  e: { type: string; reason: string; message: string; i: number },
  log: (line: string) => void,
): Promise<void> {
  const { type, reason, message } = e;
  const now = new Date();
  const namespace = pod.metadata?.namespace ?? '';
  try {
    await core.createNamespacedEvent({
      namespace,
      body: {
        metadata: { name: `${pod.metadata?.name ?? 'pod'}.${now.getTime().toString(16)}${e.i}`, namespace },
        involvedObject: {
          kind: 'Pod',
          apiVersion: 'v1',
          namespace,
          name: pod.metadata?.name,
          uid: pod.metadata?.uid,
          fieldPath: `spec.containers{${container?.name ?? ''}}`,
        },
        type,
        reason,
        message,
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: 'kubelet', host: pod.spec?.nodeName },
      },
    });
  } catch (err) {
    log(`kubelet: cannot record event for ${namespace}/${pod.metadata?.name ?? ''}: ${describeError(err)}`);
  }
}

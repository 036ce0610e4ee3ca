import { createRequire } from 'node:module';
import { useWindowSize } from 'ink';
import { render } from 'ink-testing-library';
import { type ReactElement, type ReactNode, useEffect } from 'react';
import { writeGate } from '../../../src/kube/transport/gate.js';
import { gateView } from '../../../src/dashboard/gate-view.js';
import { registry } from '../../../src/dashboard/registry.js';
import { App, type AppProps, type UiOptions } from '../../../src/screens/app.js';
import { createFleetStore, type FleetStore } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { emptyPods } from '../../../src/kube/pods/pods.js';
import type { ComponentPod } from '../../../src/kube/fleet/component-pod.js';
import type { ContextInfo } from '../../../src/kube/config/kubeconfig.js';
import type { FleetConfig } from '../../../src/kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../../src/kube/fleet/fleet-namespace.js';
import type { NodeSummary } from '../../../src/kube/nodes/nodes.js';
import type { PodProblem, PodsSummary } from '../../../src/kube/pods/pods.js';
import type { WarningEvent } from '../../../src/kube/events/events.js';

export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  right: '\u001B[C',
  // Escape as the kitty keyboard protocol sends it: one complete sequence that Ink hands to
  // useInput at once as `key.escape`. The lone ESC byte of other terminals gives the same key,
  // but Ink holds it for 20 ms in case the rest of a sequence follows.
  esc: '\u001B[27u',
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001B[Z',
  ctrlC: '\u0003',
  backspace: '\u007F',
} as const;

export type FrameCheck = string | RegExp | ((frame: string) => boolean);

/** The stdin of ink-testing-library: what `press` writes to. */
export interface KeyInput {
  write: (data: string) => void;
}

/**
 * React's task queue, the copy Ink's reconciler runs on (resolved from it). A frame is drawn
 * when React commits; the effects of that commit (the input listeners of a page just drawn) may
 * still wait in this queue, and a key written before they run is lost.
 */
const reconciler = createRequire(createRequire(import.meta.url).resolve('ink')).resolve('react-reconciler');
const scheduler = createRequire(reconciler)('scheduler') as {
  unstable_scheduleCallback: (priority: number, callback: () => void) => unknown;
  unstable_IdlePriority: number;
};

/**
 * Resolve once React has run every task it has queued, and those they queue: a task of the
 * lowest priority runs after all of them. Not a timed wait.
 */
const reactIdle = () =>
  new Promise<void>((resolve) => {
    scheduler.unstable_scheduleCallback(scheduler.unstable_IdlePriority, () => resolve());
  });
const poll = () => new Promise<void>((resolve) => setTimeout(resolve, 2));

function matcher(expected: FrameCheck): (frame: string) => boolean {
  if (typeof expected === 'function') return expected;
  if (typeof expected === 'string') return (f) => f.includes(expected);
  return (f) => expected.test(f);
}

/**
 * Poll `lastFrame()` until it contains `expected` (text), matches it (RegExp) or satisfies it
 * (predicate); return that frame. Fails after `timeout` ms (default 2000) showing the last frame.
 */
export async function waitForFrame(
  lastFrame: () => string | undefined,
  expected: FrameCheck,
  { timeout = 2000 }: { timeout?: number } = {},
): Promise<string> {
  const ok = matcher(expected);
  const deadline = Date.now() + timeout;
  for (;;) {
    const frame = lastFrame() ?? '';
    if (ok(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${String(expected)}; last frame:\n${frame}`);
    await poll();
  }
}

/**
 * Write keys to stdin, one event each, each once the app listens (React ran the effects of what
 * it drew) and handled the one before; then resolve once the app handled the last.
 */
export async function press(stdin: KeyInput, keys: string | readonly string[]): Promise<void> {
  for (const key of typeof keys === 'string' ? [keys] : keys) {
    await reactIdle();
    stdin.write(key);
  }
  await reactIdle();
}

type Rendered = ReturnType<typeof render>;

export interface Screen extends Rendered {
  /** The last frame, never undefined. */
  frame: () => string;
  /** Write keys, one event each. */
  press: (...keys: string[]) => Promise<void>;
  /** Resolve once the last frame satisfies `expected`; fail with the frame after `timeoutMs`. */
  waitFor: (expected: FrameCheck, timeoutMs?: number) => Promise<string>;
  /** Resize the terminal, as a window resized by its user; resolves once the tree rendered at the new size. */
  resize: (columns: number, rows: number) => Promise<void>;
}

/**
 * Reports the window size it has rendered with, from an effect: as it wraps the tree, that
 * runs after the effects of everything inside it, in the same commit.
 */
function SizeProbe({ onSize, children }: { onSize: (columns: number, rows: number) => void; children: ReactNode }) {
  const { columns, rows } = useWindowSize();
  useEffect(() => onSize(columns, rows), [onSize, columns, rows]);
  return <>{children}</>;
}

/** Render at a fixed terminal size (default 80×24) and wait until the app listens to keys. */
export async function renderScreen(tree: ReactElement, size: { columns?: number; rows?: number } = {}): Promise<Screen> {
  const columns = size.columns ?? 80;
  const rows = size.rows ?? 24;
  let rendered = { columns: 0, rows: 0 };
  const onSize = (c: number, r: number) => {
    rendered = { columns: c, rows: r };
  };
  const result = render(<SizeProbe onSize={onSize}>{tree}</SizeProbe>);
  const { stdout, stdin } = result;
  const frame = () => result.lastFrame() ?? '';
  const resize = async (c: number, r: number) => {
    Object.defineProperty(stdout, 'columns', { value: c, configurable: true });
    Object.defineProperty(stdout, 'rows', { value: r, configurable: true });
    stdout.emit('resize');
    await waitForFrame(frame, () => rendered.columns === c && rendered.rows === r);
  };
  const screen: Screen = {
    ...result,
    frame,
    press: (...keys) => press(stdin, keys),
    waitFor: (expected, timeout) => waitForFrame(frame, expected, { timeout }),
    resize,
  };
  // Every effect has run: the input and window-size listeners are attached (a key written
  // before that would be lost). Then the terminal takes its size and the tree renders at it.
  await waitForFrame(frame, () => rendered.columns > 0);
  await resize(columns, rows);
  return screen;
}

export function info(name: string): ContextInfo {
  return { name, cluster: name, user: `${name}-admin`, server: `https://127.0.0.1:6443/${name}` };
}

export function node(name: string, opts: Partial<NodeSummary> = {}): NodeSummary {
  return { name, uid: `uid-${name}`, ready: true, unschedulable: false, roles: [], kubeletVersion: 'v1.31.0', ...opts };
}

/** 10:42:07 today, local time, so clock() prints it back. */
export const AT_10_42_07 = new Date(2025, 0, 1, 10, 42, 7).getTime();

/**
 * Three contexts: a hosting cluster (3/3 nodes, two zones), a workload with a
 * NotReady and a cordoned node, and an unreachable one.
 */
export function threeContexts(): FleetStore {
  const store = createFleetStore([info('kind-hosting'), info('kind-workload-1'), info('kind-workload-2')]);
  const b = new UpdateBatcher(store, -1);
  b.patchContext('kind-hosting', {
    reachability: 'reachable',
    latencyMs: 3,
    version: 'v1.31.0',
    evictionVersion: 'policy/v1',
    lastSuccessAt: AT_10_42_07,
  });
  b.resetNodes('kind-hosting', [node('h-1', { zone: 'zone-a' }), node('h-2', { zone: 'zone-a' }), node('h-3', { zone: 'zone-b' })]);
  b.patchContext('kind-workload-1', { reachability: 'reachable', latencyMs: 12, version: 'v1.30.2', evictionVersion: 'policy/v1' });
  b.resetNodes('kind-workload-1', [
    node('w1-a', { zone: 'zone-a' }),
    node('w1-b', { zone: 'zone-b', ready: false, notReadyReason: 'KubeletNotReady: container runtime is down' }),
    node('w1-c', { zone: 'zone-b', unschedulable: true, kubeletVersion: 'v1.30.2' }),
    node('w1-d', { zone: 'zone-c' }),
  ]);
  b.patchContext('kind-workload-2', {
    reachability: 'unreachable',
    version: 'v1.29.4',
    unreachableSince: AT_10_42_07,
    lastError: 'connect ECONNREFUSED 127.0.0.1:6445',
  });
  b.flush();
  return store;
}

/** What a test overrides of the dashboard's props; `ui.readOnly` starts it as --read-only does (the gate's refusals included). */
export type AppOverrides = Omit<Partial<AppProps>, 'ui'> & { ui?: Partial<UiOptions> & { readOnly?: boolean } };

/** A check that `text` is on screen, though a banner or a status line wrapped it over two lines. */
export function oneLine(text: string): (frame: string) => boolean {
  return (frame) => frame.replace(/\n\s*/g, ' ').includes(text);
}

/** The dashboard's props with the registry's tabs, as `fleetdeck` starts it. */
export function appProps(store: FleetStore, over: AppOverrides = {}): AppProps {
  const { ui = {}, ...rest } = over;
  const { readOnly = false, ...terminal } = ui;
  return {
    store,
    ...registry(),
    ui: { ascii: false, color: false, ...terminal },
    gate: gateView(writeGate(readOnly)),
    kubeconfigFiles: ['/tmp/fleet/kubeconfig'],
    onQuit: () => {},
    ...rest,
  };
}

export function renderApp(props: AppProps, size?: { columns?: number; rows?: number }): Promise<Screen> {
  return renderScreen(<App {...props} />, size);
}

/** The fleet of `novaFleet()`: kind-cp hosts the control plane, nova is its own context, two workload clusters. */
export const NOVA_FLEET: FleetConfig = {
  hostingContext: 'kind-cp',
  controlPlaneContext: 'nova',
  namespace: 'elotl',
  workloads: [
    { context: 'kind-workload-1', clusterName: 'kind-workload-1' },
    { context: 'kind-workload-2', clusterName: 'kind-workload-2' },
  ],
};

export function pods(over: Partial<PodsSummary> = {}): PodsSummary {
  return { ...emptyPods(), synced: true, ...over };
}

export function problem(name: string, reason: string, over: Partial<PodProblem> = {}): PodProblem {
  return { namespace: 'default', name, phase: 'Pending', reason, restarts: 0, ...over };
}

export function warning(reason: string, object: string, minutesAgo: number, over: Partial<WarningEvent> = {}): WarningEvent {
  return { reason, object, message: `${reason} on ${object}`, count: 1, lastSeen: Date.now() - minutesAgo * 60_000, ...over };
}

function component(name: string, key: string, value: string, ready = true, reason?: string): ComponentPod {
  return { name, labels: { [key]: value }, phase: ready ? 'Running' : 'Pending', ready, ...(reason ? { reason } : {}), node: 'cp-a' };
}

/**
 * A Nova fleet in trouble: the hosting cluster's nova-scheduler is crash-looping,
 * kind-workload-2's agent cannot pull its image and its Cluster is not ready;
 * problem pods and Warning events in kind-cp and kind-workload-2.
 */
export function novaFleet(): FleetStore {
  const store = createFleetStore([info('kind-cp'), info('nova'), info('kind-workload-1'), info('kind-workload-2')], NOVA_FLEET);
  const b = new UpdateBatcher(store, -1);
  const reachable = (ctx: string, version: string, latencyMs: number) =>
    b.patchContext(ctx, { reachability: 'reachable', version, latencyMs, evictionVersion: 'policy/v1', lastSuccessAt: AT_10_42_07 });
  reachable('kind-cp', 'v1.31.0', 4);
  reachable('nova', 'v1.31.0', 6);
  reachable('kind-workload-1', 'v1.31.0', 11);
  reachable('kind-workload-2', 'v1.31.0', 14);
  b.resetNodes('kind-cp', [
    node('cp-a', { zone: 'zone-a', roles: ['control-plane'] }),
    node('cp-b', { zone: 'zone-b' }),
    node('cp-c', { zone: 'zone-c' }),
  ]);
  b.resetNodes('nova', []);
  b.resetNodes('kind-workload-1', [node('w1-a', { zone: 'zone-a' }), node('w1-b', { zone: 'zone-b', unschedulable: true })]);
  b.resetNodes('kind-workload-2', [
    node('w2-a', { zone: 'zone-a' }),
    node('w2-b', { zone: 'zone-b', ready: false, notReadyReason: 'KubeletNotReady: PLEG is not healthy' }),
  ]);

  const agent = (ready: number, reason?: string): FleetNamespaceSummary => ({
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads: [{ kind: 'Deployment', name: 'nova-agent', desired: 1, ready, labels: { app: 'nova-agent' } }],
    pods: [
      {
        name: 'nova-agent-6d5f9-abcde',
        labels: { app: 'nova-agent' },
        phase: ready ? 'Running' : 'Pending',
        ready: ready > 0,
        ...(reason ? { reason } : {}),
      },
    ],
    services: [],
    certs: [],
  });
  b.setSlice('kind-cp', 'fleetNamespace', {
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads: [
      { kind: 'Deployment', name: 'apiserver', desired: 1, ready: 1, labels: { component: 'apiserver' } },
      { kind: 'Deployment', name: 'kube-controller-manager', desired: 1, ready: 1, labels: { component: 'controller-manager' } },
      { kind: 'StatefulSet', name: 'etcd', desired: 1, ready: 1, labels: { app: 'etcd' } },
      { kind: 'Deployment', name: 'nova-scheduler', desired: 1, ready: 0, labels: { component: 'nova-scheduler' } },
    ],
    pods: [
      component('apiserver-5c7b9-x1', 'component', 'apiserver'),
      component('kube-controller-manager-7f8-x2', 'component', 'controller-manager'),
      component('etcd-0', 'app', 'etcd'),
      component('nova-scheduler-59d-x3', 'component', 'nova-scheduler', false, 'CrashLoopBackOff'),
    ],
    services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: ['172.18.255.200'] }],
    certs: [{ secret: 'nova-certs', key: 'apiserver.crt', subject: 'CN=apiserver', notAfter: Date.now() + 300 * 86_400_000 }],
  });
  b.setSlice('kind-workload-1', 'fleetNamespace', agent(1));
  b.setSlice('kind-workload-2', 'fleetNamespace', agent(0, 'ImagePullBackOff'));
  b.setSlice('nova', 'controlPlane', {
    synced: true,
    crds: { cluster: true, schedulePolicy: true, scheduleGroup: true },
    clusters: [
      {
        name: 'kind-workload-1',
        k8sVersion: 'v1.31.0',
        k8sCluster: 'kind-workload-1',
        region: 'local',
        zone: 'zone-a',
        ready: 'True',
        idle: 'True',
        standby: 'False',
      },
      {
        name: 'kind-workload-2',
        k8sVersion: 'v1.31.0',
        k8sCluster: 'kind-workload-2',
        region: 'local',
        zone: 'zone-b',
        ready: 'False',
        idle: 'True',
        standby: 'False',
      },
    ],
    schedulePolicies: 1,
  });

  b.setSlice(
    'kind-cp',
    'pods',
    pods({
      total: 142,
      byPhase: { Running: 136, Pending: 2, Failed: 1, Succeeded: 3, Unknown: 0 },
      problemCount: 3,
      problems: [
        problem('nova-scheduler-59d-x3', 'CrashLoopBackOff', { namespace: 'elotl', phase: 'Running', restarts: 17, node: 'cp-a' }),
        problem('ingest-7c9d4-q2w', 'Unschedulable: 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available', {
          namespace: 'batch',
        }),
        problem('report-28893110-k2x', 'Error', { namespace: 'batch', phase: 'Failed', node: 'cp-b' }),
      ],
    }),
  );
  b.setSlice('kind-cp', 'events', {
    synced: true,
    warnings: [
      warning('BackOff', 'Pod elotl/nova-scheduler-59d-x3', 1, {
        message: 'Back-off restarting failed container nova-scheduler in pod nova-scheduler-59d-x3_elotl',
        count: 42,
        namespace: 'elotl',
      }),
      warning('FailedScheduling', 'Pod batch/ingest-7c9d4-q2w', 3, {
        message:
          '0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
        count: 7,
        namespace: 'batch',
      }),
    ],
  });
  b.setSlice('nova', 'pods', pods());
  b.setSlice('nova', 'events', { synced: true, warnings: [] });
  b.setSlice('kind-workload-1', 'pods', pods({ total: 88, byPhase: { Running: 88, Pending: 0, Failed: 0, Succeeded: 0, Unknown: 0 } }));
  b.setSlice('kind-workload-1', 'events', { synced: true, warnings: [] });
  b.setSlice(
    'kind-workload-2',
    'pods',
    pods({
      total: 40,
      byPhase: { Running: 39, Pending: 1, Failed: 0, Succeeded: 0, Unknown: 0 },
      problemCount: 1,
      problems: [problem('nova-agent-6d5f9-abcde', 'ImagePullBackOff', { namespace: 'elotl', node: 'w2-a' })],
    }),
  );
  b.setSlice('kind-workload-2', 'events', {
    synced: true,
    warnings: [
      warning('Failed', 'Pod elotl/nova-agent-6d5f9-abcde', 2, {
        message: 'Failed to pull image "elotl/nova-agent:v9.9.9": not found',
        count: 12,
        namespace: 'elotl',
      }),
    ],
  });
  b.flush();
  return store;
}

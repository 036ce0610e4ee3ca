import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { App, type AppProps } from '../../src/screens/app.js';
import { createFleetStore, UpdateBatcher, type FleetStore } from '../../src/store/fleet-store.js';
import type { ContextInfo, NodeSummary } from '../../src/store/types.js';

export const KEYS = {
  up: '\u001B[A',
  down: '\u001B[B',
  esc: '\u001B',
  enter: '\r',
  tab: '\t',
  shiftTab: '\u001B[Z',
  ctrlC: '\u0003',
  backspace: '\u007F',
} as const;

type Rendered = ReturnType<typeof render>;

export interface Screen extends Rendered {
  /** The last frame, never undefined. */
  frame: () => string;
  /** Write keys, one event each. */
  press: (...keys: string[]) => Promise<void>;
  /** Resolve once the last frame satisfies `expected`; fail with the frame after `timeoutMs`. */
  waitFor: (expected: string | RegExp | ((frame: string) => boolean), timeoutMs?: number) => Promise<string>;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Render at a fixed terminal size (default 80×24) and wait until the app listens to keys. */
export async function renderScreen(tree: ReactElement, size: { columns?: number; rows?: number } = {}): Promise<Screen> {
  const rendered = render(tree);
  const { stdout } = rendered;
  Object.defineProperty(stdout, 'columns', { value: size.columns ?? 80, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: size.rows ?? 24, configurable: true });
  stdout.emit('resize');
  const frame = () => rendered.lastFrame() ?? '';
  const waitFor: Screen['waitFor'] = async (expected, timeoutMs = 2000) => {
    const ok =
      typeof expected === 'function' ? expected : typeof expected === 'string' ? (f: string) => f.includes(expected) : (f: string) => expected.test(f);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const f = frame();
      if (ok(f)) return f;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(expected)}; last frame:\n${f}`);
      await tick();
    }
  };
  const press: Screen['press'] = async (...keys) => {
    for (const key of keys) {
      rendered.stdin.write(key);
      // Ink holds a lone Esc for a moment in case the rest of a sequence follows.
      await (key === KEYS.esc ? new Promise((resolve) => setTimeout(resolve, 40)) : tick());
    }
  };
  const screen: Screen = { ...rendered, frame, press, waitFor };
  // Let the first effects run (input listeners, the size read above).
  await waitFor(() => stdout.frames.length > 0);
  await new Promise((resolve) => setTimeout(resolve, 20));
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
  b.patchContext('kind-hosting', { reachability: 'reachable', latencyMs: 3, version: 'v1.31.0', evictionVersion: 'policy/v1', lastSuccessAt: AT_10_42_07 });
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

export function appProps(store: FleetStore, over: Partial<AppProps> = {}): AppProps {
  return {
    store,
    ui: { readOnly: false, ascii: false, color: false },
    kubeconfigFiles: ['/tmp/fleet/kubeconfig'],
    onQuit: () => {},
    ...over,
  };
}

export function renderApp(props: AppProps, size?: { columns?: number; rows?: number }): Promise<Screen> {
  return renderScreen(<App {...props} />, size);
}

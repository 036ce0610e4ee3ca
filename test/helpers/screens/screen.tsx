import { createRequire } from 'node:module';
import { useWindowSize } from 'ink';
import { render } from 'ink-testing-library';
import { type ReactElement, type ReactNode, useEffect } from 'react';
import { writeGate } from '../../../src/kube/transport/gate.js';
import { gateView } from '../../../src/dashboard/gate-view.js';
import { registry } from '../../../src/dashboard/registry.js';
import { App, type AppProps, type UiOptions } from '../../../src/screens/app.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';

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

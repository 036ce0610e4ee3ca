/**
 * How a run stops from outside: Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal or SSH
 * session) all abort the run's work through one AbortSignal, which long-running commands pass
 * to what they do (a rollout pauses and records it, a watch stops, the dashboard unmounts and
 * gives the terminal back). The run then exits with the shell's code for that signal: 130, 143
 * or 129. A second signal while stopping exits at once with the same code. (A reader that closes
 * the pipe early is session/exit.ts's: the run ends at once with 141.)
 */

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 128 + the signal's number, as a shell reports a process ended by it. */
export const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

/** The abort's reason, as a rollout records it (`interrupted: SIGHUP (the terminal closed)`). */
const STOP_MESSAGES: Readonly<Record<StopSignal, string>> = {
  SIGINT: 'interrupted',
  SIGTERM: 'SIGTERM',
  SIGHUP: 'SIGHUP (the terminal closed)',
};

let controller = new AbortController();
let received: StopSignal | undefined;
let installed: { off: () => void } | undefined;

function onSignal(signal: StopSignal): void {
  // Already stopping: the user insists, leave now (with the first signal's code).
  if (received) process.exit(SIGNAL_EXIT_CODES[received]);
  received = signal;
  controller.abort(new Error(STOP_MESSAGES[signal]));
}

/** The terminal is gone (a write failed with EIO): as SIGHUP, unless the run is already stopping. */
export function hangUp(): void {
  if (!received) onSignal('SIGHUP');
}

/** Listens for SIGINT, SIGTERM and SIGHUP; once per run (later calls do nothing). */
export function installSignals(): void {
  if (installed) return;
  const handlers = SIGNALS.map((s) => [s, () => onSignal(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  installed = {
    off: () => {
      for (const [s, h] of handlers) process.off(s, h);
    },
  };
}

/** The run's work: aborted on the first SIGINT, SIGTERM or SIGHUP. */
export function runSignal(): AbortSignal {
  return controller.signal;
}

/** The signal that stopped the run, if one did. */
export function stopSignal(): StopSignal | undefined {
  return received;
}

/** The exit code the run must end with because of a signal (129, 130, 143); undefined without one. */
export function signalExitCode(): number | undefined {
  return received ? SIGNAL_EXIT_CODES[received] : undefined;
}

/** Resolves when the run is stopped (at once if it already was). */
export function untilStopped(): Promise<void> {
  const signal = controller.signal;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Calls `fn` once when the run is stopped; returns the function that cancels that. */
export function onStop(fn: () => void): () => void {
  const signal = controller.signal;
  if (signal.aborted) {
    queueMicrotask(fn);
    return () => {};
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}

/**
 * Removes the listeners and forgets any stop, as before installSignals: for a process that
 * handles the signals itself (the sandbox's supervisor), and for tests.
 */
export function releaseSignals(): void {
  installed?.off();
  installed = undefined;
  received = undefined;
  controller = new AbortController();
}

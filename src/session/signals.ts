/**
 * How a run stops from outside: Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal or SSH
 * session) all abort the run's work through one AbortSignal, which long-running commands pass
 * to what they do (a rollout pauses and records it, a watch stops, the dashboard unmounts and
 * gives the terminal back). The run then exits with the shell's code for that signal: 130, 143
 * or 129. A second signal while stopping exits at once with the same code.
 *
 * A pipe closed early (`fleetdeck status -o json | head -1`) is not an error: the write that
 * fails (EPIPE) stops the run's work the same way, quietly, and the run keeps the exit code of
 * its command.
 */

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 128 + the signal's number, as a shell reports a process ended by it. */
export const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

const SIGNALS = Object.keys(SIGNAL_EXIT_CODES) as StopSignal[];

/** Why the run's work was stopped. */
export type StopReason = { kind: 'signal'; signal: StopSignal } | { kind: 'closed-output' };

/** The abort's reason, as a rollout records it (`interrupted: SIGHUP (the terminal closed)`). */
const STOP_MESSAGES: Readonly<Record<StopSignal | 'closed-output', string>> = {
  SIGINT: 'interrupted',
  SIGTERM: 'SIGTERM',
  SIGHUP: 'SIGHUP (the terminal closed)',
  'closed-output': 'the output was closed',
};

let controller = new AbortController();
let reason: StopReason | undefined;
let installed: { off: () => void } | undefined;

function stop(why: StopReason): void {
  if (reason) return;
  reason = why;
  controller.abort(new Error(STOP_MESSAGES[why.kind === 'signal' ? why.signal : 'closed-output']));
}

function onSignal(signal: StopSignal): void {
  // Already stopping: the user insists, leave now (with the first signal's code).
  if (reason) process.exit(SIGNAL_EXIT_CODES[reason.kind === 'signal' ? reason.signal : signal]);
  stop({ kind: 'signal', signal });
}

/**
 * A write to a closed pipe (EPIPE) or to a terminal that went away (EIO): stop quietly instead of
 * a stack trace. Nothing more can be shown there, whatever the error.
 */
function onOutputError(): void {
  stop({ kind: 'closed-output' });
}

/** Listens for SIGINT, SIGTERM, SIGHUP and for stdout/stderr closing; once per run (later calls do nothing). */
export function installSignals(): void {
  if (installed) return;
  const handlers = SIGNALS.map((s) => [s, () => onSignal(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  process.stdout.on('error', onOutputError);
  process.stderr.on('error', onOutputError);
  installed = {
    off: () => {
      for (const [s, h] of handlers) process.off(s, h);
      process.stdout.off('error', onOutputError);
      process.stderr.off('error', onOutputError);
    },
  };
}

/** The run's work: aborted on the first SIGINT, SIGTERM or SIGHUP, or when stdout closes. */
export function runSignal(): AbortSignal {
  return controller.signal;
}

/** Why the run was stopped, if it was. */
export function stopReason(): StopReason | undefined {
  return reason;
}

/** The exit code the run must end with because of a signal (129, 130, 143); undefined without one. */
export function signalExitCode(): number | undefined {
  return reason?.kind === 'signal' ? SIGNAL_EXIT_CODES[reason.signal] : undefined;
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
  reason = undefined;
  controller = new AbortController();
}

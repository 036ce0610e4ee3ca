/**
 * Ending the process without losing output. Node writes to a pipe asynchronously: calling
 * `process.exit()` while stdout still holds data cuts the output (at 64 KiB, a pipe's buffer).
 * So fleetdeck exits once stdout and stderr have handed everything to the OS — and still exits
 * then, though keep-alive sockets and timers of finished requests would hold the process open.
 */
import fs from 'node:fs';
import { hangUp, signalExitCode } from './signals.js';

/** The exit code after the reader of stdout went away (`fleetdeck … | head -1`): 128 + SIGPIPE, as other tools end. */
export const CLOSED_PIPE_EXIT = 141;

/** Set once a write found the reader gone. */
let readerGone = false;

const isClosedPipe = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
};

/** Resolves once everything written to `stream` so far has been handed over (or the stream is gone). */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => {
    // A write's callback runs after the writes before it: an empty one marks "all so far".
    stream.write('', (err) => {
      if (isClosedPipe(err)) readerGone = true;
      resolve();
    });
  });
}

/** Exits with `code` after stdout and stderr are flushed (with 141 when the reader went away). */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(readerGone ? CLOSED_PIPE_EXIT : code);
}

/**
 * A reader that closes stdout early ends fleetdeck at once and quietly (no EPIPE error, no
 * stack): nobody reads what it would still print.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      // The terminal went away with its session (writes fail with EIO): as SIGHUP, the work stops and the run exits 129.
      if (err.code === 'EIO') return hangUp();
      // Stopping on a signal already: nothing more can be shown, the stop goes on.
      if (signalExitCode() !== undefined) return;
      if (isClosedPipe(err)) process.exit(CLOSED_PIPE_EXIT);
      throw err;
    });
  }
}

/** How often a terminal is checked for having gone away while nothing is written to it. */
const TERMINAL_CHECK_MS = 2000;
const NOTHING = Buffer.alloc(0);

/**
 * A terminal that went away is noticed at the next write (EIO), and an idle dashboard, a quiet
 * `logs -f` or `status --watch` may write nothing for minutes — when the shell outlives its
 * terminal and sends no SIGHUP, they would run on unseen. So every 2 s a write of no bytes goes
 * to stdout: a live terminal takes it, a hung-up one fails it with EIO, and the run stops as on
 * SIGHUP (exit 129). Only when stdout is a terminal; the timer never holds the process open.
 */
export function watchTerminal(stream: NodeJS.WriteStream & { fd?: number } = process.stdout): () => void {
  const fd = stream.fd;
  if (!stream.isTTY || fd === undefined) return () => {};
  const timer = setInterval(() => {
    fs.write(fd, NOTHING, (err) => {
      if (err?.code === 'EIO') hangUp();
    });
  }, TERMINAL_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

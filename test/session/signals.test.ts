import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installSignals, onStop, releaseSignals, runSignal, signalExitCode, stopSignal, untilStopped } from '../../src/session/signals.js';

// process.emit runs the listeners only: nothing is delivered to the test process.
const emitSignal = (s: NodeJS.Signals) => (process.emit as (e: string, ...a: unknown[]) => boolean)(s, s);

describe('the run stop signal', () => {
  beforeEach(() => {
    releaseSignals();
    installSignals();
  });
  afterEach(() => {
    releaseSignals();
    vi.restoreAllMocks();
  });

  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s aborts the run’s work, remembers the signal and gives exit code %d', async (signal, code) => {
    const work = runSignal();
    const stopped = vi.fn();
    onStop(stopped);
    expect(signalExitCode()).toBeUndefined();
    emitSignal(signal);
    expect(work.aborted).toBe(true);
    expect(stopSignal()).toBe(signal);
    expect(signalExitCode()).toBe(code);
    expect(stopped).toHaveBeenCalledTimes(1);
    await expect(untilStopped()).resolves.toBeUndefined();
  });

  it('the abort reason says which signal (a paused rollout records it)', () => {
    emitSignal('SIGHUP');
    expect((runSignal().reason as Error).message).toBe('SIGHUP (the terminal closed)');
  });

  it('a second signal while stopping exits at once with the first one’s code', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    emitSignal('SIGTERM');
    expect(exit).not.toHaveBeenCalled();
    emitSignal('SIGINT');
    expect(exit).toHaveBeenCalledWith(143);
  });

  it('installs once: a second install adds no listeners', () => {
    const before = process.listenerCount('SIGHUP');
    installSignals();
    expect(process.listenerCount('SIGHUP')).toBe(before);
    releaseSignals();
    expect(process.listenerCount('SIGHUP')).toBe(before - 1);
  });

  it('onStop can be cancelled; after a stop it runs at once', async () => {
    const cancelled = vi.fn();
    onStop(cancelled)();
    emitSignal('SIGTERM');
    expect(cancelled).not.toHaveBeenCalled();
    const late = vi.fn();
    onStop(late);
    await Promise.resolve();
    expect(late).toHaveBeenCalledTimes(1);
  });
});

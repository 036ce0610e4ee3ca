/** Abortable waiting for the workflows: a sleep, a promise raced against a signal, and the reason an aborted signal gives. */

/** Why an aborted signal stopped the work: its reason when it is an Error. */
export const abortReason = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error('cancelled'));

/** Resolves after `ms`, or rejects as soon as the signal aborts (with its reason). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The promise, or the signal's reason as soon as it aborts (the work itself runs on to its own timeout). */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

import type { FeedStatus } from '../store/types.js';

/** Something loaded once, when first asked for (a feed and its workflows' chunk), with its status reported. */
export interface Lazy<F> {
  /** Load it (once; after a failure again only with `retry`). */
  start(): Promise<F>;
  /** It, when loaded. */
  current(): F | undefined;
  /** Forget it: the next start() loads it again. */
  reset(): void;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function lazyFeed<F>(load: () => Promise<F>, report: (status: FeedStatus) => void, { retry = false } = {}): Lazy<F> {
  let promise: Promise<F> | undefined;
  let loaded: F | undefined;
  let failed = false;
  return {
    start() {
      if (promise && !(failed && retry)) return promise;
      failed = false;
      report('loading');
      const p = load().then(
        (f) => {
          if (promise === p) {
            loaded = f;
            report('on');
          }
          return f;
        },
        (err: unknown) => {
          if (promise === p) {
            failed = true;
            report({ error: message(err) });
          }
          throw err;
        },
      );
      promise = p;
      // The status says it failed; a caller that does not wait is not an unhandled rejection.
      p.catch(() => {});
      return p;
    },
    current: () => loaded,
    reset() {
      promise = undefined;
      loaded = undefined;
      failed = false;
      report('off');
    },
  };
}

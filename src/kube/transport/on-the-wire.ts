/**
 * Requests handed to a connection pool that have no connection yet (TCP connect, TLS handshake).
 * A handshake takes several turns of the event loop; loading a large module graph holds the
 * loop for its whole evaluation, so the dashboard loads its screens only once the first
 * requests are on the wire (or after a bound, for a server slow to accept).
 */
let unsent = 0;
let waiting: (() => void)[] = [];

/** A request starts connecting: the returned function is called once it has a connection or failed. */
export function connecting(): () => void {
  unsent++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--unsent > 0) return;
    const resolve = waiting;
    waiting = [];
    for (const r of resolve) r();
  };
}

/**
 * Resolves when every request started so far has a connection (or failed), or after `boundMs`,
 * whichever comes first.
 */
export async function requestsOnTheWire(boundMs: number): Promise<void> {
  // Requests whose credentials are at hand are made within this turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  if (unsent === 0) return;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, boundMs);
    timer.unref();
    waiting.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

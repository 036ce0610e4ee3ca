/**
 * `--request-timeout`: the whole-request deadline of every request of this run (0: none),
 * set once before a command runs. Unset, each request keeps the deadline its caller gives it.
 * A module of its own so that the command line sets it without loading client-node.
 */
let requestTimeoutMs: number | undefined;

export function setRequestTimeout(ms: number | undefined): void {
  requestTimeoutMs = ms;
}

export function requestTimeout(): number | undefined {
  return requestTimeoutMs;
}

/**
 * The one write gate. Every request a client made by makeClient sends passes through it, so
 * under --read-only nothing can change a cluster, whatever a screen or command forgot to
 * check. Commands call assertWritable first, for a refusal that names what was asked.
 */
import { UsageError } from '../../errors.js';

/** A change refused under --read-only: one line, exit code 2 (a usage error). */
export class ReadOnlyRefusal extends UsageError {}

let readOnly = false;

/** Set once per run by the session (and by tests). */
export function setReadOnly(on: boolean): void {
  readOnly = on;
}

export function isReadOnly(): boolean {
  return readOnly;
}

/**
 * Throws the gate's refusal under --read-only, before a command or a screen starts something
 * that changes a cluster: `${action} and is refused with --read-only${hint}`.
 */
export function assertWritable(action: string, hint = ''): void {
  if (readOnly) throw new ReadOnlyRefusal(`${action} and is refused with --read-only${hint}`);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Requests that create an object which is only a question: nothing in the cluster changes. */
const REVIEWS = /\/(selfsubjectaccessreviews|selfsubjectrulesreviews|subjectaccessreviews|tokenreviews)$/;

/** Does this HTTP request change a cluster? Reads, reviews and server-side dry runs do not. */
export function changesCluster(method: string, url: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  const parsed = new URL(url, 'https://server');
  if (parsed.searchParams.get('dryRun') === 'All') return false;
  return !REVIEWS.test(parsed.pathname);
}

/** The HTTP-level check: throws the refusal for a request that would change a cluster. */
export function gateRequest(method: string, url: string): void {
  if (!readOnly || !changesCluster(method, url)) return;
  const path = new URL(url, 'https://server').pathname;
  throw new ReadOnlyRefusal(`read-only: ${method.toUpperCase()} ${path} is refused (fleetdeck runs with --read-only)`);
}

/**
 * The write gate. Each session (src/session/session.ts) makes one from --read-only and sets it on
 * every KubeConfig it makes; every request a client made by makeClient sends passes the gate of
 * its KubeConfig, so under --read-only nothing can change a cluster, whatever a screen or command
 * forgot to check. Commands call the session's assertWritable first, for a refusal that names
 * what was asked. A KubeConfig made outside any session (tests, the sandbox's own setup, the
 * benchmarks) has no gate: it is writable.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../../errors.js';

/** A change refused under --read-only: one line, exit code 2 (a usage error). */
export class ReadOnlyRefusal extends UsageError {}

export interface WriteGate {
  /** --read-only: every change is refused. */
  readonly readOnly: boolean;
  /**
   * Throws the gate's refusal under --read-only, before a command or a screen starts something
   * that changes a cluster: `${action} and is refused with --read-only${hint}`.
   */
  assertWritable(action: string, hint?: string): void;
  /** The HTTP-level check: throws the refusal for a request that would change a cluster. */
  check(method: string, url: string): void;
}

/** A write gate: closed to every change when `readOnly`, open otherwise. Its functions need no `this`. */
export function writeGate(readOnly: boolean): WriteGate {
  return {
    readOnly,
    assertWritable(action: string, hint = ''): void {
      if (readOnly) throw new ReadOnlyRefusal(`${action} and is refused with --read-only${hint}`);
    },
    check(method: string, url: string): void {
      if (!readOnly || !changesCluster(method, url)) return;
      const path = new URL(url, 'https://server').pathname;
      throw new ReadOnlyRefusal(`read-only: ${method.toUpperCase()} ${path} is refused (fleetdeck runs with --read-only)`);
    },
  };
}

/** The gate's one line refusing `action` (--read-only), or undefined when it is allowed. */
export function refusalOf(gate: Pick<WriteGate, 'assertWritable'>, action: string): string | undefined {
  try {
    gate.assertWritable(action);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return undefined;
}

/** The gate of each KubeConfig a session made (and of those made from it: see configForContext). */
const gates = new WeakMap<KubeConfig, WriteGate>();

/** Every request of a client made from `kc` passes `gate` from now on. Returns `kc`. */
export function setGate<K extends KubeConfig>(kc: K, gate: WriteGate): K {
  gates.set(kc, gate);
  return kc;
}

/** The gate `kc`'s requests pass; undefined for a KubeConfig made outside any session (writable). */
export function gateOf(kc: KubeConfig): WriteGate | undefined {
  return gates.get(kc);
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

/**
 * The Certificates view's slice: what the certs feed last read of every certificate source (the
 * control plane's Secrets, the agents' init kubeconfig, the kubeconfig's client certificates;
 * certificate metadata only), when, and whether a read is under way. Pure reducers; the certs
 * feed is their only caller. The rows are made from `sources` by src/report/certs, as for
 * `fleetdeck certs`.
 */
import type { CertSources } from '../kube/certs/cert-sources.js';

/** The residual time under which a certificate is flagged ‼ (as `fleetdeck certs --warn-days`). */
export const DEFAULT_WARN_DAYS = 30;

export interface CertsSlice {
  /** The view is shown: the feed reads every minute and when the control plane's Secrets change. */
  shown: boolean;
  warnDays: number;
  /** Undefined until the first read answered. */
  sources?: CertSources;
  /** When `sources` was read (ms since the epoch). */
  readAt?: number;
  /** A read is under way. */
  reading: boolean;
  /** Why the last read failed (the previous sources stay), one line. */
  error?: string;
  /** No fleet is defined: only the kubeconfig's certificates are read. */
  noFleet?: boolean;
}

export const emptyCerts = (warnDays = DEFAULT_WARN_DAYS): CertsSlice => ({ shown: false, warnDays, reading: false });

export function certsShown(s: CertsSlice, shown: boolean): CertsSlice {
  return s.shown === shown ? s : { ...s, shown };
}

export function certsReading(s: CertsSlice): CertsSlice {
  return s.reading ? s : { ...s, reading: true };
}

/** A read answered: its sources replace the old ones. */
export function certsRead(s: CertsSlice, sources: CertSources, at: number, noFleet: boolean): CertsSlice {
  const { error: _gone, ...rest } = s;
  return { ...rest, sources, readAt: at, reading: false, noFleet };
}

/** A read failed as a whole (a source that could not be read is a row instead). */
export function certsFailed(s: CertsSlice, error: string): CertsSlice {
  return { ...s, reading: false, error };
}

/** The session changed: nothing read of the old one is kept. */
export function certsCleared(s: CertsSlice): CertsSlice {
  return { shown: s.shown, warnDays: s.warnDays, reading: s.reading };
}

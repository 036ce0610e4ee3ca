/** The Day 2 page's facts lines: the control plane, its bundle, the last backup made here, the certificates' nearest expiry. */
import { certInventory, certState, residual } from '../../report/certs/inventory.js';
import { ago } from '../../report/relative-time.js';
import type { CertsSlice } from '../../store/certs.js';
import type { Day2Facts } from '../../store/day2.js';

/** "nearest expiry: nova-apiserver in 364d (ok)", or what is known while the certificates are read. */
export function nearestExpiry(certs: CertsSlice, now: number): string {
  if (!certs.sources) return certs.error ? `certificates: ${certs.error}` : 'certificates: reading…';
  const rows = certInventory(certs.sources).rows.filter((r) => r.notAfter !== undefined);
  const first = rows.sort((a, b) => (a.notAfter ?? 0) - (b.notAfter ?? 0))[0];
  if (!first) return 'certificates: none with an expiry found';
  const state = certState(first, now, certs.warnDays);
  const verdict = state === 'ok' ? '' : state === 'warn' ? ` (within ${certs.warnDays} days: renew)` : ' (renew now)';
  return `nearest certificate expiry: ${first.name} (${first.usedBy}) in ${residual(first, now)}${verdict}`;
}

export function factLines(facts: Day2Facts, certs: CertsSlice, now: number): string[] {
  const cp = facts.context ? `control plane: context ${facts.context}` : 'control plane: none found in this session';
  const bundle = facts.bundle ? `installed bundle: ${facts.bundle}` : 'installed bundle: not recorded';
  const last = facts.lastBackup
    ? `last backup from this machine: ${facts.lastBackup.file} (${ago(Date.parse(facts.lastBackup.at), now)} ago)`
    : 'last backup from this machine: none';
  return [`${cp} · ${bundle}`, last, nearestExpiry(certs, now)];
}

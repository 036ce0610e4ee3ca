import { type CertRow, residual } from '../../../report/certs/inventory.js';
import type { Pane } from '../detail/row-pane.js';

const iso = (ms: number | undefined) => (ms === undefined ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** The selected certificate in full: subject and issuer, validity, SANs, serial, where it was read, who uses it. */
export function certPane(r: CertRow, now: number): Pane {
  if (r.problem) {
    return { title: r.name, facts: r.usedBy, paragraphs: [r.problem, `source: ${r.source}`] };
  }
  const validity = r.noExpiry
    ? 'no expiry (a key pair, no certificate)'
    : `valid ${iso(r.notBefore)} → ${iso(r.notAfter)} (${residual(r, now)})`;
  return {
    title: r.name,
    facts: `subject ${r.subject ?? '-'} · issuer ${r.issuer ?? '-'}`,
    paragraphs: [
      validity,
      ...(r.sans.length ? [`SANs: ${r.sans.join(', ')}`] : []),
      ...(r.serial ? [`serial: ${r.serial}`] : []),
      `used by: ${r.usedBy}`,
      `source: ${r.source}`,
    ],
  };
}

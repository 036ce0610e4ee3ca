/** `fleetdeck certs` output (pure): the table for people and the JSON document. */
import { checkSymbol, toAscii } from '../../checklist/checklist.js';
import { shortSerial } from '../../output/serial.js';
import { type CertInventory, type CertState, certState, residual } from './inventory.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** "CN=a, O=b" as "a/b" for the table (the full subject is in the JSON). */
function short(dn: string | undefined): string {
  if (!dn) return '-';
  const parts = dn.split(', ');
  const cn = parts.filter((p) => p.startsWith('CN=')).map((p) => p.slice(3));
  const o = parts.filter((p) => p.startsWith('O=')).map((p) => p.slice(2));
  return [...cn, ...o].join('/') || dn;
}

const sansText = (sans: string[]) => sans.map((s) => s.replace(/^DNS:/, '').replace(/^IP Address:/, '')).join(',');

export function certCounts(inv: CertInventory, now: number, warnDays: number): Record<CertState, number> {
  const counts: Record<CertState, number> = { ok: 0, warn: 0, fail: 0 };
  for (const r of inv.rows) counts[certState(r, now, warnDays)]++;
  return counts;
}

/** The table: symbol, NAME, SUBJECT, ISSUER, SERIAL, NOT AFTER, RESIDUAL, USED BY, SANS (last: it can be long); then a summary. */
export function certsText(inv: CertInventory, now: number, warnDays: number, ascii: boolean): string {
  const header = ['', 'NAME', 'SUBJECT', 'ISSUER', 'SERIAL', 'NOT AFTER', 'RESIDUAL', 'USED BY', 'SANS'];
  const cells = inv.rows.map((r) => {
    const state = certState(r, now, warnDays);
    const notAfter = r.problem ? r.problem : (iso(r.notAfter) ?? '-');
    return [
      checkSymbol(state, { ascii }),
      r.name,
      r.problem ? '-' : short(r.subject),
      r.problem ? '-' : short(r.issuer),
      r.problem ? '-' : shortSerial(r.serial),
      r.problem ? '-' : notAfter,
      r.problem ? r.problem : residual(r, now),
      r.usedBy,
      sansText(r.sans),
    ];
  });
  const table = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const lines = table.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const c = certCounts(inv, now, warnDays);
  lines.push('', `${c.ok} ok, ${c.warn} expiring within ${warnDays} days, ${c.fail} expired or unreadable`);
  if (inv.skipped.length) {
    const list = inv.skipped.map((s) => `${s.context} (${s.method})`).join(', ');
    lines.push(`not certificate-based, not listed: ${list}`);
  }
  const text = lines.join('\n');
  return ascii ? toAscii(text) : text;
}

/** The JSON document of `fleetdeck certs -o json`. */
export function certsJson(inv: CertInventory, now: number, warnDays: number) {
  return {
    now: iso(now),
    warnDays,
    certificates: inv.rows.map((r) => ({
      name: r.name,
      group: r.group,
      state: certState(r, now, warnDays),
      subject: r.subject ?? null,
      issuer: r.issuer ?? null,
      sans: r.sans,
      serial: r.serial ?? null,
      notBefore: iso(r.notBefore),
      notAfter: iso(r.notAfter),
      residual: residual(r, now),
      usedBy: r.usedBy,
      source: r.source,
      problem: r.problem ?? null,
    })),
    skipped: inv.skipped,
    summary: certCounts(inv, now, warnDays),
  };
}

/** Pending CertificateSigningRequests as text: their age, subject and the lines `fleetdeck approve` prints. */
import { formatDuration } from '../duration.js';
import type { CsrSummary } from '../kube/csr/index.js';

/** "45s", "12m", "3h", "2d". */
export function ageOf(created: string | undefined, now = Date.now()): string {
  if (!created) return '?';
  const at = Date.parse(created);
  return Number.isNaN(at) ? '?' : formatDuration(now - at, 'kubectl-age');
}

/** The requested subject: "CN=…, O=…", or "(empty)". */
export function subjectText(c: CsrSummary): string {
  return (
    [c.subject.commonName ? `CN=${c.subject.commonName}` : '', ...c.subject.organizations.map((o) => `O=${o}`)]
      .filter(Boolean)
      .join(', ') || '(empty)'
  );
}

/** One CSR as text lines: name, requester, signer, usages, subject, SANs, age, warnings. */
export function csrLines(c: CsrSummary, now = Date.now()): string[] {
  const sans = [...c.dnsNames, ...c.ipAddresses];
  const lines = [
    `${c.name}  ${c.condition}  age ${ageOf(c.created, now)}`,
    `  requester ${c.requester || '?'}${c.groups.length ? ` (groups ${c.groups.join(', ')})` : ''}`,
    `  signer    ${c.signer}`,
    `  usages    ${c.usages.join(', ') || '-'}`,
    `  subject   ${subjectText(c)}${sans.length ? `; SANs ${sans.join(', ')}` : ''}`,
  ];
  for (const w of c.warnings) lines.push(`  ‼ ${w}`);
  return lines;
}

/** A CSR in `approve -o json`: its summary and its age. */
export function csrJson(c: CsrSummary, now = Date.now()): CsrSummary & { age: string } {
  return { ...c, age: ageOf(c.created, now) };
}

/** A renewal's plan as the text `certs renew` prints and the Day 2 page shows. */
import type { RenewPlan } from './plan.js';
import { shortSerial } from '../../output/serial.js';
import type { RenewedCert } from './run.js';

const day = (iso: string | undefined) => (iso ? iso.slice(0, 10) : 'unreadable');

/** The plan as text lines. */
export function planLines(plan: RenewPlan): string[] {
  const lines: string[] = [];
  if (plan.resumed)
    lines.push(`An earlier renewal (started ${plan.resumed.startedAt}) did not finish: this run finishes it, with its certificates.`);
  lines.push(`Plan: renew ${plan.certs.length} certificate(s) in namespace ${plan.namespace}, signed by the existing CAs (keys kept):`);
  const w = Math.max(...plan.certs.map((c) => c.name.length), 4);
  for (const c of plan.certs)
    lines.push(
      `  ${c.name.padEnd(w)}  ${day(c.notAfter)} -> ${day(c.newNotAfter)}${c.cappedByCa ? ' (capped by its CA)' : ''}  ${c.secret}`,
    );
  lines.push(`  Secrets: ${plan.secrets.join(', ') || 'none'}`);
  for (const r of plan.restarts) lines.push(`  Restart one at a time: ${r.component} (${r.pods.join(', ') || 'no pod'})`);
  if (plan.kubeconfigs.length) lines.push(`  Kubeconfigs: ${plan.kubeconfigs.join(', ')}`);
  if (plan.initKubeconfigs.length) lines.push(`  Init kubeconfig Secret in: ${plan.initKubeconfigs.join(', ')}`);
  if (plan.agents.length) lines.push(`  Agents restarted and checked re-connected: ${plan.agents.join(', ')}`);
  return lines;
}

/**
 * What a finished renewal made, as `certs renew` ends: each certificate with its new serial (what
 * tells a renewed certificate from the old one, as `fleetdeck certs` shows it) and its not-after,
 * and why a date is earlier than asked (capped by its CA).
 */
export function renewedLines(plan: RenewPlan, certs: readonly RenewedCert[]): string[] {
  const w = Math.max(...certs.map((c) => c.name.length), 4);
  const capped = new Set(plan.certs.filter((c) => c.cappedByCa).map((c) => c.name));
  const lines = [
    'Renewed:',
    `  ${'NAME'.padEnd(w)}  ${'SERIAL'.padEnd(13)}  NOT AFTER`,
    ...certs.map((c) => `  ${c.name.padEnd(w)}  ${shortSerial(c.serial).padEnd(13)}  ${day(c.notAfter)}${capped.has(c.name) ? ' *' : ''}`),
  ];
  if (certs.some((c) => capped.has(c.name))) lines.push('  * capped by its CA’s not-after: certs renew --rotate-ca renews the CAs too');
  lines.push('fleetdeck certs lists every certificate with its serial and not-after date.');
  return lines;
}

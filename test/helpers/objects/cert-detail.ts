import type { CertDetail } from '../../../src/kube/certs/certs.js';

/** A fixed "now" for certificate tests, and one day in milliseconds. */
export const CERT_NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
export const DAY = 86_400_000;

/** A leaf certificate issued by `nova-ca` a day before CERT_NOW, expiring `daysLeft` days after it. */
export const certDetail = (cn: string, daysLeft: number, sans: string[] = []): CertDetail => ({
  subject: `CN=${cn}`,
  issuer: 'CN=nova-ca',
  sans,
  serial: 'AB01',
  notBefore: CERT_NOW - DAY,
  notAfter: CERT_NOW + daysLeft * DAY,
  isCA: false,
});

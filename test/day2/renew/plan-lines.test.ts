import { describe, expect, it } from 'vitest';
import { renewedLines } from '../../../src/day2/renew/plan-lines.js';
import type { RenewPlan } from '../../../src/day2/renew/plan.js';

const plan = {
  namespace: 'elotl',
  certs: [
    { name: 'apiserver', cappedByCa: true },
    { name: 'admin', cappedByCa: false },
  ],
} as unknown as RenewPlan;

describe('what a finished renewal says', () => {
  it('each certificate with its new serial and not-after, and why a date is earlier than asked', () => {
    expect(
      renewedLines(plan, [
        { name: 'apiserver', serial: '5A3F', notAfter: '2027-03-01T10:00:00.000Z' },
        { name: 'admin', serial: '5A40', notAfter: '2027-11-28T10:00:00.000Z' },
      ]),
    ).toEqual([
      'Renewed:',
      '  NAME       SERIAL         NOT AFTER',
      '  apiserver  5A3F           2027-03-01 *',
      '  admin      5A40           2027-11-28',
      '  * capped by its CA’s not-after: certs renew --rotate-ca renews the CAs too',
      'fleetdeck certs lists every certificate with its serial and not-after date.',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { CertInventory } from '../../../src/report/certs/inventory.js';
import { certsJson, certsText } from '../../../src/report/certs/table.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');

const inv: CertInventory = {
  rows: [
    {
      name: 'apiserver',
      group: 'control-plane',
      subject: 'CN=kube-apiserver',
      issuer: 'CN=nova-ca',
      sans: ['DNS:apiserver', 'IP Address:10.96.0.1'],
      serial: '0A',
      notBefore: NOW - DAY,
      notAfter: Date.parse('2027-11-25T12:00:00Z'),
      usedBy: 'kube-apiserver (serving)',
      source: 'Secret elotl/nova-apiserver-certs: apiserver.crt',
    },
    {
      name: 'alice',
      group: 'kubeconfig',
      subject: 'O=devs, CN=alice',
      issuer: 'CN=throwaway',
      sans: [],
      notBefore: NOW - 10 * DAY,
      notAfter: NOW - 3 * DAY,
      usedBy: 'context dev',
      source: 'kubeconfig user alice: client-certificate-data',
    },
    {
      name: 'admin',
      group: 'control-plane',
      sans: [],
      usedBy: 'admin',
      source: 'Secret elotl/nova-admin: tls.crt',
      problem: 'cannot read (forbidden: x)',
    },
    {
      name: 'service-account-key',
      group: 'control-plane',
      sans: [],
      noExpiry: true,
      usedBy: 'token signing',
      source: 'Secret elotl/nova-apiserver-certs: sa.pub',
    },
  ],
  skipped: [{ context: 'sso', user: 'u', method: 'exec plugin' }],
};

describe('certs table', () => {
  it('aligns the columns with SANs last, marks each row (with its serial, what tells a renewed certificate) and sums up', () => {
    const lines = certsText(inv, NOW, 30, false).split('\n');

    expect(lines[0]).toMatch(/^\s+NAME\s+SUBJECT\s+ISSUER\s+SERIAL\s+NOT AFTER\s+RESIDUAL\s+USED BY\s+SANS$/);
    const col = lines[0]!.indexOf('RESIDUAL');
    expect(lines[1]).toMatch(
      /^√\s+apiserver\s+kube-apiserver\s+nova-ca\s+0A\s+2027-11-25T12:00:00Z\s+364d\s+kube-apiserver \(serving\)\s+apiserver,10\.96\.0\.1$/,
    );
    expect(lines[1]!.indexOf('364d')).toBe(col);
    expect(lines[2]).toMatch(/^✗\s+alice\s+alice\/devs\s+throwaway\s+-\s+\S+\s+expired 3d ago\s+context dev$/);
    expect(lines[3]).toMatch(/^✗\s+admin\s+-\s+-\s+-\s+-\s+cannot read \(forbidden: x\)/);
    expect(lines[4]).toMatch(/^√\s+service-account-key\s+-\s+-\s+-\s+-\s+no expiry/);
    expect(lines.at(-2)).toBe('2 ok, 0 expiring within 30 days, 2 expired or unreadable');
    expect(lines.at(-1)).toBe('not certificate-based, not listed: sso (exec plugin)');
  });

  it('shows a long serial by its first 12 hex digits', () => {
    const one = { ...inv, rows: [{ ...inv.rows[0]!, serial: '5A3F9C0B12D4E6F70819AABB' }] };
    expect(certsText(one, NOW, 30, false).split('\n')[1]).toContain(' 5A3F9C0B12D4… ');
  });

  it('uses ASCII symbols with --ascii', () => {
    const text = certsText(inv, NOW, 30, true);
    expect(text.split('\n')[1]).toMatch(/^\[ok\]/);
    expect([...text].every((ch) => ch.charCodeAt(0) < 128)).toBe(true);
  });

  it('gives every field in JSON with ISO times, state and summary', () => {
    const doc = certsJson(inv, NOW, 400);
    expect(doc.warnDays).toBe(400);
    expect(doc.certificates[0]).toEqual({
      name: 'apiserver',
      group: 'control-plane',
      state: 'warn',
      subject: 'CN=kube-apiserver',
      issuer: 'CN=nova-ca',
      sans: ['DNS:apiserver', 'IP Address:10.96.0.1'],
      serial: '0A',
      notBefore: '2026-11-25T12:00:00Z',
      notAfter: '2027-11-25T12:00:00Z',
      residual: '364d',
      usedBy: 'kube-apiserver (serving)',
      source: 'Secret elotl/nova-apiserver-certs: apiserver.crt',
      problem: null,
    });
    expect(doc.certificates[2]).toMatchObject({ state: 'fail', notAfter: null, residual: '-', problem: 'cannot read (forbidden: x)' });
    expect(doc.summary).toEqual({ ok: 1, warn: 1, fail: 2 });
    expect(doc.skipped).toEqual(inv.skipped);
  });
});

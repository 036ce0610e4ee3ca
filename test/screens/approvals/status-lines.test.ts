import { describe, expect, it } from 'vitest';
import { statusLines } from '../../../src/screens/approvals/status-lines.js';

const REFUSAL =
  'csr-aaa11: not approved: HTTP 403: certificatesigningrequests.certificates.k8s.io "csr-aaa11" is forbidden: User "system:serviceaccount:ops:readonly-bastion-operator" cannot update resource "certificatesigningrequests/approval" in API group "certificates.k8s.io" at the cluster scope (needs update on certificatesigningrequests/approval)';

describe('statusLines', () => {
  it('wraps a line that fits in the lines it has', () => {
    expect(statusLines('csr-1: approved', 40)).toEqual(['csr-1: approved']);
    expect(statusLines('a b c d', 3, 3)).toEqual(['a b', 'c d']);
  });

  it('shortens a longer one from the middle: its start and the permission it needs stay', () => {
    const lines = statusLines(REFUSAL, 59, 3);
    expect(lines.length).toBeLessThanOrEqual(3);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(59);
    const text = lines.join(' ');
    expect(text.startsWith('csr-aaa11: not approved: HTTP 403')).toBe(true);
    expect(text.endsWith('(needs update on certificatesigningrequests/approval)')).toBe(true);
    expect(text).toContain('…');
  });

  it('without a permission to keep, keeps both ends', () => {
    const lines = statusLines(`start ${'x '.repeat(100)}end`, 20, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.startsWith('start')).toBe(true);
    expect(lines[1]?.endsWith('end')).toBe(true);
  });
});

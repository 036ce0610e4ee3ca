import { describe, expect, it } from 'vitest';
import { KUBELET_SERVING_SIGNER, type CsrSummary } from '../../src/kube/csr/summary.js';
import { ageOf, csrJson, csrLines, subjectText } from '../../src/report/csr-lines.js';

const pending: CsrSummary = {
  name: 'csr-1',
  requester: 'system:node:n1',
  groups: ['system:nodes'],
  signer: KUBELET_SERVING_SIGNER,
  usages: ['digital signature', 'server auth'],
  subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] },
  dnsNames: ['n1'],
  ipAddresses: ['10.0.0.7'],
  created: '2025-01-01T00:00:00.000Z',
  condition: 'Pending',
  nodeName: 'n1',
  warnings: ['asks for n1, not among node n1 addresses (10.0.0.8)'],
};

describe('ageOf', () => {
  it('seconds under 2 minutes, then minutes, hours under 2 days, days', () => {
    const created = '2025-01-01T00:00:00.000Z';
    expect(ageOf(created, Date.parse('2025-01-01T00:01:59Z'))).toBe('119s');
    expect(ageOf(created, Date.parse('2025-01-01T00:05:00Z'))).toBe('5m');
    expect(ageOf(created, Date.parse('2025-01-01T03:00:00Z'))).toBe('3h');
    expect(ageOf(created, Date.parse('2025-01-03T00:00:00Z'))).toBe('2d');
    expect(ageOf(undefined)).toBe('?');
    expect(ageOf('not a time')).toBe('?');
  });
});

describe('csrLines', () => {
  it('name, requester with groups, signer, usages, subject with SANs, then each warning', () => {
    expect(csrLines(pending, Date.parse('2025-01-01T00:05:00Z'))).toEqual([
      'csr-1  Pending  age 5m',
      '  requester system:node:n1 (groups system:nodes)',
      '  signer    kubernetes.io/kubelet-serving',
      '  usages    digital signature, server auth',
      '  subject   CN=system:node:n1, O=system:nodes; SANs n1, 10.0.0.7',
      '  ‼ asks for n1, not among node n1 addresses (10.0.0.8)',
    ]);
  });

  it('an empty subject and no SANs, usages or requester', () => {
    const bare: CsrSummary = {
      ...pending,
      requester: '',
      groups: [],
      usages: [],
      subject: { organizations: [] },
      dnsNames: [],
      ipAddresses: [],
      warnings: [],
    };
    expect(subjectText(bare)).toBe('(empty)');
    expect(csrLines(bare, Date.parse('2025-01-01T00:00:30Z'))).toEqual([
      'csr-1  Pending  age 30s',
      '  requester ?',
      '  signer    kubernetes.io/kubelet-serving',
      '  usages    -',
      '  subject   (empty)',
    ]);
  });

  it('the JSON of a request is its summary and its age', () => {
    expect(csrJson(pending, Date.parse('2025-01-01T00:05:00Z'))).toEqual({ ...pending, age: '5m' });
  });
});

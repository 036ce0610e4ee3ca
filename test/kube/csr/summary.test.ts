import { describe, expect, it } from 'vitest';
import type { V1CertificateSigningRequest } from '@kubernetes/client-node';
import {
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  csrCondition,
  summarizeCsr,
  withWarnings,
  type CsrSummary,
} from '../../../src/kube/csr/summary.js';
import { b64, EC_CSR } from '../../helpers/objects/csr.js';

function csr(name: string, o: Partial<CsrSummary> = {}): CsrSummary {
  return {
    name,
    requester: 'system:node:n1',
    groups: ['system:nodes'],
    signer: KUBELET_CLIENT_SIGNER,
    usages: ['digital signature', 'client auth'],
    subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] },
    dnsNames: [],
    ipAddresses: [],
    condition: 'Pending',
    nodeName: 'n1',
    warnings: [],
    ...o,
  };
}

describe('csrCondition', () => {
  it('Pending, Approved, Issued, Denied, Failed', () => {
    expect(csrCondition(undefined).condition).toBe('Pending');
    expect(csrCondition({ conditions: [{ type: 'Approved', status: 'True', reason: 'R' }] })).toEqual({
      condition: 'Approved',
      detail: 'R',
    });
    expect(csrCondition({ conditions: [{ type: 'Approved', status: 'True' }], certificate: 'Y2VydA==' }).condition).toBe('Issued');
    expect(csrCondition({ conditions: [{ type: 'Denied', status: 'True', message: 'no' }] })).toEqual({
      condition: 'Denied',
      detail: 'no',
    });
    expect(
      csrCondition({
        conditions: [
          { type: 'Approved', status: 'True' },
          { type: 'Failed', status: 'True' },
        ],
      }).condition,
    ).toBe('Failed');
  });
});

describe('summarizeCsr', () => {
  it('requester, groups, signer, usages, subject, SANs, node name, creation time', () => {
    const obj: V1CertificateSigningRequest = {
      metadata: { name: 'csr-1', creationTimestamp: new Date('2025-01-01T00:00:00Z') },
      spec: {
        request: b64(EC_CSR),
        signerName: KUBELET_SERVING_SIGNER,
        usages: ['digital signature', 'server auth'],
        username: 'system:node:ec-node',
        groups: ['system:nodes', 'system:authenticated'],
      },
    };
    const s = summarizeCsr(obj);
    expect(s).toMatchObject({
      name: 'csr-1',
      requester: 'system:node:ec-node',
      groups: ['system:nodes', 'system:authenticated'],
      signer: KUBELET_SERVING_SIGNER,
      usages: ['digital signature', 'server auth'],
      subject: { commonName: 'system:node:ec-node', organizations: ['system:nodes'] },
      dnsNames: ['ec-node'],
      ipAddresses: ['10.0.0.7'],
      created: '2025-01-01T00:00:00.000Z',
      condition: 'Pending',
      nodeName: 'ec-node',
    });
  });
});

describe('withWarnings', () => {
  it('warns when pending requests of different requesters claim one node name', () => {
    const out = withWarnings([
      csr('a', { requester: 'system:bootstrap:abc' }),
      csr('b', { requester: 'system:bootstrap:xyz' }),
      csr('c', { requester: 'system:bootstrap:abc', nodeName: 'n2', subject: { commonName: 'system:node:n2', organizations: [] } }),
    ]);
    expect(out[0]!.warnings).toEqual(['node n1 is also claimed by pending requests from system:bootstrap:xyz']);
    expect(out[1]!.warnings).toEqual(['node n1 is also claimed by pending requests from system:bootstrap:abc']);
    expect(out[2]!.warnings).toEqual([]);
  });

  it('no duplicate warning for one requester asking twice, nor for decided requests', () => {
    const out = withWarnings([
      csr('a', { requester: 'r1' }),
      csr('b', { requester: 'r1' }),
      csr('c', { requester: 'r2', condition: 'Approved' }),
    ]);
    expect(out.flatMap((c) => c.warnings)).toEqual([]);
  });

  it('warns when a kubelet serving request asks for names or IPs outside the node’s addresses', () => {
    const serving = (name: string, dns: string[], ips: string[], requester = 'system:node:n1') =>
      csr(name, { signer: KUBELET_SERVING_SIGNER, requester, dnsNames: dns, ipAddresses: ips });
    const out = withWarnings(
      [
        serving('ok', ['n1'], ['10.0.0.1']),
        serving('bad', ['n1', 'evil.example'], ['10.0.0.1', '8.8.8.8']),
        serving('v6', [], ['fd00:0::1']),
      ],
      { n1: ['10.0.0.1', 'n1', 'fd00::1'] },
    );
    expect(out[0]!.warnings).toEqual([]);
    expect(out[1]!.warnings).toEqual(["asks for evil.example, 8.8.8.8, not among node n1's addresses (10.0.0.1, n1, fd00::1)"]);
    expect(out[2]!.warnings).toEqual([]);
  });

  it('serving requests: unknown node, requester not the node, subject not a node; not checked when not looked up', () => {
    const out = withWarnings(
      [
        csr('gone', { signer: KUBELET_SERVING_SIGNER, nodeName: 'ghost', requester: 'system:node:ghost', dnsNames: ['ghost'] }),
        csr('other', { signer: KUBELET_SERVING_SIGNER, requester: 'alice', dnsNames: ['n1'] }),
        csr('nocn', { signer: KUBELET_SERVING_SIGNER, subject: { commonName: 'web', organizations: [] }, nodeName: undefined }),
      ],
      { ghost: null },
    );
    expect(out[0]!.warnings).toEqual(['no Node named ghost: its names and IPs cannot be checked']);
    expect(out[1]!.warnings).toEqual(['requested by alice, not by the node system:node:n1 itself']);
    expect(out[2]!.warnings).toEqual(['kubelet serving request whose subject is not system:node:<name> (web)']);
  });

  it('client requests are not address-checked', () => {
    expect(withWarnings([csr('a', { dnsNames: ['x'] })], { n1: [] })[0]!.warnings).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { makeCsrPem, parseCsrRequest } from '../../../src/kube/csr/request.js';
import { b64, EC_CSR } from '../../helpers/objects/csr.js';

describe('parseCsrRequest', () => {
  it('reads subject and SANs of an RSA request (base64 PEM, as spec.request carries it, or PEM)', async () => {
    const { csrPem } = await makeCsrPem({
      commonName: 'system:node:a',
      organizations: ['system:nodes'],
      dnsNames: ['a', 'a.example'],
      ipAddresses: ['10.1.2.3', 'fd00::1'],
    });
    for (const input of [b64(csrPem), csrPem]) {
      const p = parseCsrRequest(input);
      expect(p.error).toBeUndefined();
      expect(p.commonName).toBe('system:node:a');
      expect(p.organizations).toEqual(['system:nodes']);
      expect(p.dnsNames).toEqual(['a', 'a.example']);
      expect(p.ipAddresses).toEqual(['10.1.2.3', 'fd00::1']);
    }
  });

  it('reads an ECDSA request too', () => {
    const p = parseCsrRequest(b64(EC_CSR));
    expect(p).toMatchObject({
      commonName: 'system:node:ec-node',
      organizations: ['system:nodes'],
      dnsNames: ['ec-node'],
      ipAddresses: ['10.0.0.7'],
    });
    expect(p.error).toBeUndefined();
  });

  it('says so when the request is not one', () => {
    expect(parseCsrRequest(b64('hello')).error).toMatch(/no PEM|does not parse/);
    expect(parseCsrRequest('').error).toBeDefined();
  });
});

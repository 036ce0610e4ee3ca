/** CSRs for tests. */
import { KUBELET_CLIENT_SIGNER, type CsrSummary } from '../../../src/kube/csr/index.js';

// openssl req -new -newkey ec (P-256): what kubelets send; node-forge's parser reads RSA only.
export const EC_CSR = `-----BEGIN CERTIFICATE REQUEST-----
MIIBGzCBwgIBADA1MRUwEwYDVQQKDAxzeXN0ZW06bm9kZXMxHDAaBgNVBAMME3N5
c3RlbTpub2RlOmVjLW5vZGUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAASA1w3w
9jvbt6GoyxOCclmJjWmcQfqEEkwQdrkpDD5UaRpWjTwB0olBKAhGi+3xA037oTBm
O2eB2tVjKR8hOjwNoCswKQYJKoZIhvcNAQkOMRwwGjAYBgNVHREEETAPggdlYy1u
b2RlhwQKAAAHMAoGCCqGSM49BAMCA0gAMEUCIQCOEvAe/xm6O/hbR3W0xvMPn/pI
ZeTzNAnmuPuAPYVw9wIgS1/oIh7eSKBkqU9q88lgc7Tm3fisPPBSc3pvp4xfcig=
-----END CERTIFICATE REQUEST-----
`;

/** base64, as `spec.request` carries the PEM. */
export const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A kubelet's pending client-certificate request for `node`, made `minutesAgo`, as the panel lists it. */
export function pendingCsr(name: string, requester: string, node: string, minutesAgo: number): CsrSummary {
  return {
    name,
    requester,
    groups: ['system:bootstrappers'],
    signer: KUBELET_CLIENT_SIGNER,
    usages: ['digital signature', 'client auth'],
    subject: { commonName: `system:node:${node}`, organizations: ['system:nodes'] },
    dnsNames: [],
    ipAddresses: ['10.0.0.7'],
    created: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    condition: 'Pending',
    nodeName: node,
    warnings: [],
  };
}

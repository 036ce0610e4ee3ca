/** CSRs for tests. */

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

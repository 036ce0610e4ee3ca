import crypto from 'node:crypto';
import net from 'node:net';
import forge from 'node-forge';

const { pki, md } = forge;

export interface KeyMaterial {
  /** PEM, PKCS#8 private key. Never print or log it. */
  keyPem: string;
  certPem: string;
}

export interface Authority extends KeyMaterial {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

/** RSA key pair from Node's native generator (asynchronous: the screen keeps drawing). */
export function generateKeyPair(bits = 2048): Promise<forge.pki.rsa.KeyPair> {
  return new Promise((resolve, reject) => {
    pki.rsa.generateKeyPair({ bits, workers: -1 }, (err, pair) => (err ? reject(err) : resolve(pair)));
  });
}

function serialNumber(): string {
  // Positive, 16 random bytes (RFC 5280: at most 20 octets, non-negative).
  const b = crypto.randomBytes(16);
  b[0] = b[0]! & 0x7f;
  return b.toString('hex');
}

function validity(cert: forge.pki.Certificate, days: number, now = new Date()): void {
  cert.validity.notBefore = new Date(now.getTime() - 5 * 60_000); // tolerate small clock skew
  cert.validity.notAfter = new Date(now.getTime() + days * 86_400_000);
}

export async function createAuthority(commonName: string, days: number): Promise<Authority> {
  const keys = await generateKeyPair();
  const cert = pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, days);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(keys.privateKey, md.sha256.create());
  return {
    cert,
    key: keys.privateKey,
    certPem: pki.certificateToPem(cert),
    keyPem: privateKeyPem(keys.privateKey),
  };
}

export interface CertRequest {
  commonName: string;
  /** Subject organizations: for client certs these are the Kubernetes groups. */
  organizations?: string[];
  /** DNS names and IP addresses for the subjectAltName. */
  hosts?: string[];
  usage: 'server' | 'client' | 'server+client';
  days: number;
}

export async function issueCertificate(ca: Authority, req: CertRequest): Promise<KeyMaterial> {
  const keys = await generateKeyPair();
  const cert = pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serialNumber();
  validity(cert, Math.min(req.days, daysLeft(ca.cert)));
  cert.setSubject([
    ...(req.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })),
    { name: 'commonName', value: req.commonName },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  const altNames = (req.hosts ?? []).map((h) => (net.isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    {
      name: 'extKeyUsage',
      serverAuth: req.usage !== 'client',
      clientAuth: req.usage !== 'server',
    },
    ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(ca.key, md.sha256.create());
  return { certPem: pki.certificateToPem(cert), keyPem: privateKeyPem(keys.privateKey) };
}

function daysLeft(cert: forge.pki.Certificate): number {
  return Math.floor((cert.validity.notAfter.getTime() - Date.now()) / 86_400_000);
}

export function privateKeyPem(key: forge.pki.rsa.PrivateKey): string {
  return pki.privateKeyInfoToPem(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(key)));
}

export function publicKeyPem(key: forge.pki.rsa.PublicKey): string {
  return pki.publicKeyToPem(key);
}

/** An RSA key pair as PEM, e.g. for service-account token signing. */
export async function keyPairPem(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  const keys = await generateKeyPair();
  return { privateKeyPem: privateKeyPem(keys.privateKey), publicKeyPem: publicKeyPem(keys.publicKey) };
}

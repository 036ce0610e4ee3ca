import crypto from 'node:crypto';
import net from 'node:net';
import forge from 'node-forge';

const { pki } = forge;

export interface KeyMaterial {
  /** PEM, PKCS#8 private key. Never print or log it. */
  keyPem: string;
  certPem: string;
}

export interface Authority extends KeyMaterial {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

/**
 * RSA key pair as node-forge objects. node-forge (1.x) hands the work to Node's native,
 * asynchronous `crypto.generateKeyPair` when it runs under Node with a callback and no custom
 * PRNG, so this does not block the event loop; it then parses the PEM back into forge objects.
 * Code that only needs PEM should use {@link generateKeyPem}, which skips that round trip.
 */
export function generateKeyPair(bits = 2048): Promise<forge.pki.rsa.KeyPair> {
  return new Promise((resolve, reject) => {
    pki.rsa.generateKeyPair({ bits, workers: -1 }, (err, pair) => (err ? reject(err) : resolve(pair)));
  });
}

/** A key pair as PEM text: PKCS#8 private key (never print or log it) and SPKI public key. */
export interface KeyPairPem {
  privateKeyPem: string;
  publicKeyPem: string;
}

/**
 * RSA key pair (public exponent 65537) from Node's native generator, asynchronous (libuv thread
 * pool): the event loop keeps running while the primes are searched.
 */
export function generateKeyPem(bits = 2048): Promise<KeyPairPem> {
  return new Promise((resolve, reject) => {
    crypto.generateKeyPair(
      'rsa',
      {
        modulusLength: bits,
        publicExponent: 0x10001,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicKeyPem, privateKeyPem) => (err ? reject(err) : resolve({ privateKeyPem, publicKeyPem })),
    );
  });
}

/** The SPKI PEM public key of a PEM private key (PKCS#8 or PKCS#1). Throws when it does not parse. */
export function publicKeyPemOf(privateKeyPem: string): string {
  return crypto.createPublicKey(crypto.createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * Whether a PEM private key is an RSA key of at least `minBits` bits. False for text that is not
 * a private key; the key itself never appears in an error or a log line.
 */
export function isRsaPrivateKey(privateKeyPem: string, minBits = 2048): boolean {
  try {
    const key = crypto.createPrivateKey(privateKeyPem);
    return key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= minBits;
  } catch {
    return false;
  }
}

/** Whether the certificate's public key is the public half of `privateKeyPem` (false if either does not parse). */
export function keyMatchesCertificate(certPem: string, privateKeyPem: string): boolean {
  try {
    const fromCert = new crypto.X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
    const fromKey = crypto.createPublicKey(crypto.createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
    return fromCert.equals(fromKey);
  } catch {
    return false;
  }
}

/** PKCS#8 PEM of a PEM private key: the text itself when it already is PKCS#8, else converted. */
function pkcs8Pem(privateKeyPem: string): string {
  if (/-----BEGIN PRIVATE KEY-----/.test(privateKeyPem)) return privateKeyPem;
  return crypto.createPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
}

function serialNumber(): string {
  // Positive, 16 random bytes (RFC 5280: at most 20 octets, non-negative).
  const b = crypto.randomBytes(16);
  b[0] = b[0]! & 0x7f;
  return b.toString('hex');
}

/** `days` from now (notBefore 5 minutes back for clock skew), but never past `notAfterCap`. */
function validity(cert: forge.pki.Certificate, days: number, notAfterCap?: Date, now = new Date()): void {
  cert.validity.notBefore = new Date(now.getTime() - 5 * 60_000); // tolerate small clock skew
  const notAfter = now.getTime() + days * 86_400_000;
  cert.validity.notAfter = new Date(notAfterCap ? Math.min(notAfter, notAfterCap.getTime()) : notAfter);
}

const getTBSCertificate = (pki as unknown as { getTBSCertificate(c: forge.pki.Certificate): forge.asn1.Asn1 }).getTBSCertificate;

/**
 * Signs `cert` with SHA-256/RSA (what forge's `cert.sign(key, sha256)` produces), but with
 * Node's crypto in the thread pool: forge's pure-JavaScript RSA signature holds the event loop
 * for tens of milliseconds per certificate.
 */
async function signCertificate(cert: forge.pki.Certificate, privateKeyPem: string): Promise<void> {
  cert.signatureOid = cert.siginfo.algorithmOid = pki.oids.sha256WithRSAEncryption!;
  cert.tbsCertificate = getTBSCertificate(cert);
  const tbs = Buffer.from(forge.asn1.toDer(cert.tbsCertificate).getBytes(), 'binary');
  const key = crypto.createPrivateKey(privateKeyPem);
  const signature = await new Promise<Buffer>((resolve, reject) =>
    crypto.sign('sha256', tbs, key, (err, sig) => (err ? reject(err) : resolve(sig))),
  );
  cert.signature = signature.toString('binary');
}

/** Options of {@link createAuthority}. */
export interface AuthorityOptions {
  /**
   * Use this private key (PEM) instead of generating one: renews a CA certificate while keeping
   * its key, so certificates it signed before still verify.
   */
  keyPem?: string;
  /** A PEM certificate whose subject to use instead of `CN=<commonName>` (the CA certificate being renewed). */
  sameSubjectAs?: string;
}

/**
 * A self-signed CA: RSA 2048 (or the given key), SHA-256, basicConstraints CA (critical),
 * keyUsage keyCertSign + cRLSign + digitalSignature (critical), valid for `days` days.
 */
export async function createAuthority(commonName: string, days: number, opts: AuthorityOptions = {}): Promise<Authority> {
  const keyPem = opts.keyPem ? pkcs8Pem(opts.keyPem) : (await generateKeyPem()).privateKeyPem;
  const cert = pki.createCertificate();
  cert.publicKey = pki.publicKeyFromPem(publicKeyPemOf(keyPem));
  cert.serialNumber = serialNumber();
  validity(cert, days);
  const subject = opts.sameSubjectAs
    ? pki.certificateFromPem(opts.sameSubjectAs).subject.attributes
    : [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  await signCertificate(cert, keyPem);
  return { cert, key: pki.privateKeyFromPem(keyPem), certPem: pki.certificateToPem(cert), keyPem };
}

/**
 * An {@link Authority} from PEM certificate and private key (e.g. read back from a Secret).
 * Throws when the certificate is not a CA, the key is not RSA, or the key is not the
 * certificate's; the messages never contain key material.
 */
export function authorityFromPem(certPem: string, keyPem: string): Authority {
  let x509: crypto.X509Certificate;
  try {
    x509 = new crypto.X509Certificate(certPem);
  } catch {
    throw new Error('the CA certificate does not parse');
  }
  if (!x509.ca) throw new Error(`the certificate ${x509.subject.replace(/\n/g, ', ')} is not a CA`);
  if (!isRsaPrivateKey(keyPem, 1024)) throw new Error('the CA private key is not a readable RSA key');
  if (!keyMatchesCertificate(certPem, keyPem)) throw new Error('the CA private key does not belong to the CA certificate');
  const pem = pkcs8Pem(keyPem);
  return { cert: pki.certificateFromPem(certPem), key: pki.privateKeyFromPem(pem), certPem, keyPem: pem };
}

export interface CertRequest {
  commonName: string;
  /** Subject organizations: for client certs these are the Kubernetes groups. */
  organizations?: string[];
  /** DNS names and IP addresses for the subjectAltName. */
  hosts?: string[];
  usage: 'server' | 'client' | 'server+client';
  days: number;
  /** Certify this private key (PEM) instead of a newly generated one. */
  keyPem?: string;
  /** Issue it as if it were this time (validity counted from it): expired or not-yet-valid certificates for tests. */
  now?: Date;
}

/**
 * A leaf certificate signed by `ca`: SHA-256, keyUsage digitalSignature + keyEncipherment,
 * extKeyUsage from `usage`, SANs from `hosts`, never valid longer than the CA. The key is
 * `req.keyPem` when given, else a new RSA 2048 key.
 */
export async function issueCertificate(ca: Authority, req: CertRequest): Promise<KeyMaterial> {
  const keyPem = req.keyPem ? pkcs8Pem(req.keyPem) : (await generateKeyPem()).privateKeyPem;
  const cert = pki.createCertificate();
  cert.publicKey = pki.publicKeyFromPem(publicKeyPemOf(keyPem));
  cert.serialNumber = serialNumber();
  validity(cert, req.days, ca.cert.validity.notAfter, req.now);
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
  await signCertificate(cert, ca.keyPem);
  return { certPem: pki.certificateToPem(cert), keyPem };
}

/** PKCS#8 PEM of a forge RSA private key. Never print or log the result. */
export function privateKeyPem(key: forge.pki.rsa.PrivateKey): string {
  return pki.privateKeyInfoToPem(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(key)));
}

/** SPKI PEM of a forge RSA public key. */
export function publicKeyPem(key: forge.pki.rsa.PublicKey): string {
  return pki.publicKeyToPem(key);
}

/** An RSA 2048 key pair as PEM (see {@link generateKeyPem}), e.g. for service-account token signing. */
export async function keyPairPem(): Promise<{ privateKeyPem: string; publicKeyPem: string }> {
  return generateKeyPem();
}

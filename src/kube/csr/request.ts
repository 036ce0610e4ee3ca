/** The PKCS#10 request a CSR carries: read its subject and SANs; make one (tests and the sandbox). */
import forge from 'node-forge';

const { pki, asn1 } = forge;

/** What a PKCS#10 request asks for. */
export interface ParsedRequest {
  commonName?: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** Set when the request does not parse; the other fields are then empty. */
  error?: string;
}

const EMPTY: ParsedRequest = { organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };

/** PEM text of `spec.request`: the API carries the PEM base64 encoded; PEM given as is is accepted too. */
function requestPem(request: string): string {
  if (request.includes('-----BEGIN')) return request;
  return Buffer.from(request, 'base64').toString('utf8');
}

interface ForgeAttr {
  name?: string;
  shortName?: string;
  type?: string;
  value?: unknown;
  extensions?: { name?: string; altNames?: { type: number; value?: string; ip?: string }[] }[];
}

function fromAttributes(subject: ForgeAttr[], attributes: ForgeAttr[]): ParsedRequest {
  const out: ParsedRequest = { organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  for (const a of subject) {
    if (a.name === 'commonName' && typeof a.value === 'string') out.commonName = a.value;
    if (a.name === 'organizationName' && typeof a.value === 'string') out.organizations.push(a.value);
  }
  const extReq = attributes.find((a) => a.name === 'extensionRequest');
  for (const ext of extReq?.extensions ?? []) {
    if (ext.name !== 'subjectAltName') continue;
    for (const n of ext.altNames ?? []) {
      if (n.type === 2 && n.value !== undefined) out.dnsNames.push(n.value);
      else if (n.type === 7 && n.ip) out.ipAddresses.push(n.ip);
      else if (n.type === 1 && n.value !== undefined) out.emailAddresses.push(n.value);
      else if (n.type === 6 && n.value !== undefined) out.uris.push(n.value);
    }
  }
  return out;
}

/**
 * Subject and SANs of a PKCS#10 request (`spec.request`: base64 of the PEM, or PEM). node-forge's
 * parser reads RSA requests only; other keys (kubelets use ECDSA) are read from the ASN.1 directly.
 */
export function parseCsrRequest(request: string): ParsedRequest {
  let pem: string;
  try {
    pem = requestPem(request);
  } catch {
    return { ...EMPTY, error: 'the request is not base64' };
  }
  try {
    const csr = pki.certificationRequestFromPem(pem);
    return fromAttributes(csr.subject.attributes as ForgeAttr[], (csr as unknown as { attributes: ForgeAttr[] }).attributes ?? []);
  } catch {
    // not RSA, or not a request at all: read the structure itself
  }
  try {
    const msg = forge.pem.decode(pem).find((m) => m.type === 'CERTIFICATE REQUEST' || m.type === 'NEW CERTIFICATE REQUEST');
    if (!msg) return { ...EMPTY, error: 'no PEM CERTIFICATE REQUEST block' };
    const root = asn1.fromDer(msg.body);
    const cri = (root.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
    const helpers = pki as unknown as { RDNAttributesAsArray(a: unknown): ForgeAttr[]; CRIAttributesAsArray(a: unknown): ForgeAttr[] };
    const subject = helpers.RDNAttributesAsArray(cri[1]!);
    const attrsNode = cri.find((n, i) => i >= 3 && n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
    const rdnAttrs = attrsNode ? (helpers.CRIAttributesAsArray(attrsNode.value) ?? []) : [];
    return fromAttributes(subject, rdnAttrs);
  } catch (err) {
    return { ...EMPTY, error: `the request does not parse (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** What {@link makeCsrPem} puts in a request. */
export interface CsrRequestSpec {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
}

/**
 * A PEM PKCS#10 request (RSA 2048 key, SHA-256) for the subject and SANs given, and its private
 * key (PKCS#8 PEM; never print it). For tests and the sandbox: real kubelets make their own.
 */
export async function makeCsrPem(spec: CsrRequestSpec): Promise<{ csrPem: string; keyPem: string }> {
  const keys = await new Promise<forge.pki.rsa.KeyPair>((resolve, reject) =>
    pki.rsa.generateKeyPair({ bits: 2048, workers: -1 }, (err, pair) => (err ? reject(err) : resolve(pair))),
  );
  const csr = pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([
    ...(spec.organizations ?? []).map((o) => ({ name: 'organizationName', value: o })),
    { name: 'commonName', value: spec.commonName },
  ]);
  const altNames = [
    ...(spec.dnsNames ?? []).map((d) => ({ type: 2, value: d })),
    ...(spec.ipAddresses ?? []).map((ip) => ({ type: 7, ip })),
  ];
  if (altNames.length) csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(keys.privateKey, forge.md.sha256.create());
  return {
    csrPem: pki.certificationRequestToPem(csr),
    keyPem: pki.privateKeyInfoToPem(pki.wrapRsaPrivateKey(pki.privateKeyToAsn1(keys.privateKey))),
  };
}

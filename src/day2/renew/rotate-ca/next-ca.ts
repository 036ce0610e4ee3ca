/**
 * The new CAs of a rotation, kept in the hosting cluster before anything depends on them:
 * Secret `<CA Secret>-next` (e.g. `nova-ca-next`) holds the new CA's certificate and key and the
 * old CA's certificate (`old.crt`, no key), so a resumed run hands over to the same CA. Made
 * once (same subject as the old CA, new key); read back on every later run; deleted at the end.
 */
import type { KubeConfig, V1Secret } from '@kubernetes/client-node';
import { b64 } from '../../../install/certs/kubeconfigs.js';
import { CA_SPECS, CERT_SECRET_LABELS, type CaField } from '../../../install/certs/specs.js';
import type { PartialCertSet } from '../../../install/certs/types.js';
import { Applier, type Manifest } from '../../../kube/api/apply.js';
import { createAuthority } from '../../../kube/certs/pki.js';
import { readSecrets } from '../../../kube/certs/secret.js';
import type { Rotation } from './bundle.js';

/** The Secret that holds a CA (`nova-ca`, …), from its spec's location. */
export function caSecretName(field: CaField): string {
  return CA_SPECS.find((c) => c.field === field)!.location.split(':')[0]!;
}

export const nextSecretName = (field: CaField) => `${caSecretName(field)}-next`;

export interface NextCa {
  old: string;
  certPem: string;
  keyPem: string;
}

function nextSecret(namespace: string, field: CaField, ca?: NextCa): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: nextSecretName(field), namespace, labels: { ...CERT_SECRET_LABELS } },
    ...(ca ? { type: 'Opaque', data: { 'ca.crt': b64(ca.certPem), 'ca.key': b64(ca.keyPem), 'old.crt': b64(ca.old) } } : {}),
  } as Manifest;
}

const unb64 = (s: string | undefined) => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

/** The new CAs already in the cluster, by field. */
export async function readNextCas(kc: KubeConfig, namespace: string, cas: readonly CaField[]): Promise<Partial<Record<CaField, NextCa>>> {
  const secrets = await readSecrets(kc, namespace, cas.map(nextSecretName));
  const out: Partial<Record<CaField, NextCa>> = {};
  for (const f of cas) {
    const d = (secrets[nextSecretName(f)] as V1Secret | undefined)?.data;
    if (d?.['ca.crt'] && d['ca.key'] && d['old.crt'])
      out[f] = { certPem: unb64(d['ca.crt']), keyPem: unb64(d['ca.key']), old: unb64(d['old.crt']) };
  }
  return out;
}

/**
 * The new CA of every field in `cas`: read back when its `-next` Secret exists, else made (same
 * subject as the old CA in `found`, new key, `days` valid) and written before it is returned.
 */
export async function ensureNextCas(
  kc: KubeConfig,
  namespace: string,
  cas: readonly CaField[],
  found: PartialCertSet,
  days: number,
): Promise<Partial<Record<CaField, NextCa>>> {
  const have = await readNextCas(kc, namespace, cas);
  const a = new Applier(kc);
  for (const f of cas) {
    if (have[f]) continue;
    const old = found[f]?.certPem;
    if (!old) throw new Error(`the ${CA_SPECS.find((c) => c.field === f)!.description} is not readable in Secret ${caSecretName(f)}`);
    const spec = CA_SPECS.find((c) => c.field === f)!;
    const made = await createAuthority(spec.commonName, days, { sameSubjectAs: old });
    const ca = { old, certPem: made.certPem, keyPem: made.keyPem };
    await a.apply(nextSecret(namespace, f, ca));
    have[f] = ca;
  }
  return have;
}

/** The hand-over pairs (old → new certificate) of the new CAs. */
export function rotationOf(next: Partial<Record<CaField, NextCa>>): Rotation {
  const r: Rotation = {};
  for (const [f, ca] of Object.entries(next) as [CaField, NextCa][]) r[f] = { old: ca.old, next: ca.certPem };
  return r;
}

/** Deletes the `-next` Secrets once the new CAs are the CAs. */
export async function dropNextCas(kc: KubeConfig, namespace: string, cas: readonly CaField[]): Promise<void> {
  const a = new Applier(kc);
  for (const f of cas) await a.delete(nextSecret(namespace, f));
}

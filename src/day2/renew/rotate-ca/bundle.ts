/**
 * The trust hand-over of a CA rotation (pure): what each trust file holds in each phase (old
 * and new CA concatenated while both are trusted, the new one alone at the end), the
 * certificate Secrets with those bundles in place, and kubeconfigs' certificate-authority-data
 * pointed at a bundle. The CA Secrets themselves always hold one signer (certificate + key).
 */
import type { V1Secret } from '@kubernetes/client-node';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { certSecrets } from '../../../install/certs/secrets.js';
import type { CaField } from '../../../install/certs/specs.js';
import type { CertSet } from '../../../install/certs/types.js';
import type { KubeconfigDoc } from '../../../install/kubeconfig-file.js';

export type RotationPhase = 'bundle' | 'leaves' | 'drop';

/** The CA certificates (PEM) being handed over, per rotated CA. */
export type CaPair = { old: string; next: string };
export type Rotation = Partial<Record<CaField, CaPair>>;

const trimmed = (pem: string) => `${pem.trim()}\n`;

/** Old and new CA concatenated (old first), the new alone after `drop`. */
export function trustOf(pair: CaPair, phase: RotationPhase): string {
  return phase === 'drop' ? trimmed(pair.next) : `${trimmed(pair.old)}${trimmed(pair.next)}`;
}

/** Which CA signs in `phase`: the old one while the bundle is rolled out, the new one after. */
export function signerPhase(phase: RotationPhase): keyof CaPair {
  return phase === 'bundle' ? 'old' : 'next';
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: unknown) => (typeof s === 'string' ? Buffer.from(s, 'base64').toString('utf8') : '');

/** Trust data keys of the certificate Secrets, by the CA they hold. */
const TRUST_KEYS: Readonly<Record<string, Partial<Record<CaField, string[]>>>> = {
  'nova-apiserver-certs': { clusterCA: ['ca.crt'], etcdCA: ['etcd-ca.crt'], frontProxyCA: ['front-proxy-ca.crt'] },
  'nova-etcd-certs': { etcdCA: ['ca.crt'] },
};

/** Secrets whose embedded kubeconfig trusts the cluster CA. */
const KUBECONFIG_SECRETS = ['nova-controller-manager', 'nova-scheduler'];

/**
 * The install's certificate Secrets for `set` (signed by its CAs), with every trust file of a
 * rotated CA replaced by its bundle for `phase`: the API server's client CA, etcd CA and
 * front-proxy CA, etcd's trusted CA, and the CA data of the components' kubeconfigs.
 */
export function rotationSecrets(set: CertSet, rotation: Rotation, phase: RotationPhase): V1Secret[] {
  const secrets = certSecrets(set);
  for (const s of secrets) {
    const name = s.metadata!.name!;
    const keys = TRUST_KEYS[name] ?? {};
    for (const [field, pair] of Object.entries(rotation) as [CaField, CaPair][]) {
      for (const k of keys[field] ?? []) s.data![k] = b64(trustOf(pair, phase));
    }
    const cluster = rotation.clusterCA;
    if (cluster && KUBECONFIG_SECRETS.includes(name) && s.data?.kubeconfig) {
      const doc = parseYaml(unb64(s.data.kubeconfig)) as KubeconfigDoc;
      setCaData(doc, [cluster.old, cluster.next], trustOf(cluster, phase));
      s.data.kubeconfig = b64(stringifyYaml(doc));
    }
  }
  return secrets;
}

/** The PEM blocks of a bundle. */
export function pemBlocks(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)?.map(trimmed) ?? [];
}

/**
 * Sets `certificate-authority-data` of every cluster of `doc` that trusts one of `cas` (any of
 * its blocks) to `bundle`; the names of the clusters changed.
 */
export function setCaData(doc: KubeconfigDoc, cas: readonly string[], bundle: string): string[] {
  const known = new Set(cas.map(trimmed));
  const changed: string[] = [];
  for (const c of doc.clusters ?? []) {
    const cluster = c.cluster as Record<string, unknown> | undefined;
    if (!cluster) continue;
    const now = unb64(cluster['certificate-authority-data']);
    if (!pemBlocks(now).some((b) => known.has(b))) continue;
    if (now === bundle) continue;
    cluster['certificate-authority-data'] = b64(bundle);
    changed.push(c.name);
  }
  return changed;
}

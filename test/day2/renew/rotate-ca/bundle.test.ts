import { X509Certificate } from 'node:crypto';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Rotation, pemBlocks, rotationSecrets, setCaData, signerPhase, trustOf } from '../../../../src/day2/renew/rotate-ca/bundle.js';
import { generateCertSet } from '../../../../src/install/certs/generate.js';
import type { CertSet } from '../../../../src/install/certs/types.js';
import type { KubeconfigDoc } from '../../../../src/install/kubeconfig-file.js';
import { createAuthority } from '../../../../src/kube/certs/pki.js';

let set: CertSet;
let next: string;
let rotation: Rotation;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');
const caDataOf = (doc: KubeconfigDoc) => (doc.clusters?.[0]?.cluster as Record<string, string> | undefined)?.['certificate-authority-data'];
const serials = (bundle: string) => pemBlocks(bundle).map((p) => new X509Certificate(p).serialNumber);

beforeAll(async () => {
  set = (await generateCertSet({ namespace: 'elotl', apiserverAddress: { ip: '10.0.0.1' }, etcdMembers: 1, validityDays: 365 })).set;
  next = (await createAuthority('nova-ca', 365, { sameSubjectAs: set.clusterCA.certPem })).certPem;
  rotation = { clusterCA: { old: set.clusterCA.certPem, next } };
});

describe('trustOf / signerPhase', () => {
  it('holds old then new CA until drop, then the new one alone; the old CA signs only in bundle', () => {
    const pair = { old: set.clusterCA.certPem, next };
    const sOld = new X509Certificate(set.clusterCA.certPem).serialNumber;
    const sNew = new X509Certificate(next).serialNumber;
    expect(serials(trustOf(pair, 'bundle'))).toEqual([sOld, sNew]);
    expect(serials(trustOf(pair, 'leaves'))).toEqual([sOld, sNew]);
    expect(serials(trustOf(pair, 'drop'))).toEqual([sNew]);
    expect([signerPhase('bundle'), signerPhase('leaves'), signerPhase('drop')]).toEqual(['old', 'next', 'next']);
  });
});

describe('rotationSecrets', () => {
  const data = (phase: 'bundle' | 'drop', name: string, key: string) =>
    unb64(rotationSecrets(set, rotation, phase).find((s) => s.metadata?.name === name)?.data?.[key]);

  it("puts the bundle in the API server's client CA and the components' kubeconfigs, keeps the CA Secrets single signers", () => {
    expect(pemBlocks(data('bundle', 'nova-apiserver-certs', 'ca.crt'))).toHaveLength(2);
    expect(data('bundle', 'nova-ca', 'ca.crt')).toBe(set.clusterCA.certPem);
    expect(data('bundle', 'nova-controller-manager', 'ca.crt')).toBe(set.clusterCA.certPem);
    for (const name of ['nova-controller-manager', 'nova-scheduler']) {
      const doc = parse(data('bundle', name, 'kubeconfig')) as KubeconfigDoc;
      const ca = unb64(caDataOf(doc));
      expect(pemBlocks(ca), name).toHaveLength(2);
    }
  });

  it('leaves the trust of CAs not rotated as they are; after drop only the new CA is trusted', () => {
    expect(data('bundle', 'nova-apiserver-certs', 'etcd-ca.crt')).toBe(set.etcdCA.certPem);
    expect(data('bundle', 'nova-etcd-certs', 'ca.crt')).toBe(set.etcdCA.certPem);
    expect(serials(data('drop', 'nova-apiserver-certs', 'ca.crt'))).toEqual([new X509Certificate(next).serialNumber]);
  });

  it('never puts key material in a trust file', () => {
    expect(data('bundle', 'nova-apiserver-certs', 'ca.crt')).not.toMatch(/PRIVATE KEY/);
  });
});

describe('setCaData', () => {
  it('changes the clusters that trust the old or new CA, and no other', () => {
    const bundle = trustOf({ old: set.clusterCA.certPem, next }, 'bundle');
    const doc: KubeconfigDoc = {
      clusters: [
        { name: 'nova', cluster: { server: 'https://10.0.0.1', 'certificate-authority-data': b64(set.clusterCA.certPem) } },
        { name: 'other', cluster: { server: 'https://x', 'certificate-authority-data': b64(set.etcdCA.certPem) } },
      ],
    };
    expect(setCaData(doc, [set.clusterCA.certPem, next], bundle)).toEqual(['nova']);
    expect(unb64(caDataOf(doc))).toBe(bundle);
    expect(setCaData(doc, [set.clusterCA.certPem, next], bundle)).toEqual([]);
    expect(setCaData(doc, [set.clusterCA.certPem, next], trustOf({ old: set.clusterCA.certPem, next }, 'drop'))).toEqual(['nova']);
  });
});

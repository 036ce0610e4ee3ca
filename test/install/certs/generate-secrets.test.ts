import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  CERT_SECRET_LABELS,
  CERT_SECRET_NAMES,
  type CertSet,
  type CertSetResult,
  type KeyMaterial,
  adminKubeconfig,
  apiserverUrl,
  certSecrets,
  certSetFromSecrets,
  initKubeconfig,
} from '../../../src/install/certs/index.js';
import {
  CAS,
  type KubeconfigDoc,
  LB_IP,
  LEAVES,
  NS,
  SLOW,
  b64d,
  certKeyId,
  keyId,
  newCertSet,
  subjectLines,
  x509,
} from './cert-set-fixture.js';

let first: CertSetResult;
beforeAll(async () => {
  ({ result: first } = await newCertSet());
}, SLOW);

describe('Secrets and kubeconfigs', () => {
  it("writes the install's Secrets: Opaque, labelled, namespaced, base64 data with exactly the table's keys", () => {
    const secrets = certSecrets(first.set, NS);
    expect(secrets.map((s) => s.metadata?.name)).toEqual([...CERT_SECRET_NAMES]);
    const etcdKeys = [0, 1, 2].flatMap((i) => ['server', 'peer'].flatMap((r) => [`etcd-${i}-${r}.crt`, `etcd-${i}-${r}.key`]));
    const expected: Record<string, string[]> = {
      'nova-ca': ['ca.crt', 'ca.key'],
      'nova-etcd-ca': ['ca.crt', 'ca.key'],
      'nova-front-proxy-ca': ['ca.crt', 'ca.key'],
      'nova-apiserver-certs': [
        'ca.crt',
        'apiserver.crt',
        'apiserver.key',
        'apiserver-etcd-client.crt',
        'apiserver-etcd-client.key',
        'etcd-ca.crt',
        'front-proxy-ca.crt',
        'front-proxy-client.crt',
        'front-proxy-client.key',
        'sa.pub',
        'sa.key',
      ],
      'nova-etcd-certs': ['ca.crt', ...etcdKeys],
      'nova-controller-manager': ['ca.crt', 'ca.key', 'sa.key', 'kubeconfig'],
      'nova-scheduler': ['kubeconfig'],
      'nova-admin': ['tls.crt', 'tls.key'],
      'nova-agent-bootstrap': ['tls.crt', 'tls.key'],
    };
    for (const s of secrets) {
      const name = s.metadata!.name!;
      expect([s.apiVersion, s.kind, s.type, s.metadata?.namespace], name).toEqual(['v1', 'Secret', 'Opaque', NS]);
      expect(s.metadata?.labels, name).toEqual({ 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' });
      expect(s.metadata?.labels, name).toEqual(CERT_SECRET_LABELS);
      expect(s.stringData, name).toBeUndefined();
      expect(Object.keys(s.data ?? {}).sort(), name).toEqual([...expected[name]!].sort());
      for (const [k, v] of Object.entries(s.data ?? {})) {
        expect(/^[A-Za-z0-9+/]+=*$/.test(v), `${name}/${k} is base64`).toBe(true);
        const text = b64d(v);
        const kind = k.endsWith('.crt') ? 'CERTIFICATE' : k.endsWith('.key') ? 'PRIVATE KEY' : k === 'sa.pub' ? 'PUBLIC KEY' : undefined;
        // The certificates and keys are PEM files of their type; the kubeconfigs are not PEM.
        expect(/^-----BEGIN ([A-Z ]+)-----/.exec(text)?.[1], `${name}/${k}: the PEM type it starts with`).toBe(kind);
      }
    }
    const api = secrets.find((s) => s.metadata?.name === 'nova-apiserver-certs')!.data!;
    expect(b64d(api['ca.crt'])).toBe(first.set.clusterCA.certPem);
    expect(b64d(api['etcd-ca.crt'])).toBe(first.set.etcdCA.certPem);
    expect(b64d(api['front-proxy-ca.crt'])).toBe(first.set.frontProxyCA.certPem);
    expect(() => certSecrets(first.set, 'other')).toThrow(/namespace/);
  });

  it('gives the controller-manager and the scheduler kubeconfigs for the in-cluster Service with their client certificates', () => {
    const secrets = certSecrets(first.set, NS);
    for (const [name, cn] of [
      ['nova-controller-manager', 'system:kube-controller-manager'],
      ['nova-scheduler', 'system:kube-scheduler'],
    ] as const) {
      const kc = parseYaml(b64d(secrets.find((s) => s.metadata?.name === name)!.data!.kubeconfig)) as KubeconfigDoc;
      expect(kc.clusters[0]!.cluster.server, name).toBe(`https://apiserver.${NS}.svc:443`);
      expect(b64d(kc.clusters[0]!.cluster['certificate-authority-data']), name).toBe(first.set.clusterCA.certPem);
      const cert = b64d(kc.users[0]!.user['client-certificate-data']);
      expect(subjectLines(x509(cert)), name).toEqual([`CN=${cn}`]);
      expect(keyId(b64d(kc.users[0]!.user['client-key-data'])) === certKeyId(cert), name).toBe(true);
      expect(kc['current-context'], name).toBe(kc.contexts[0]!.name);
    }
  });

  it("builds the agents' init kubeconfig and the admin kubeconfig with embedded data", () => {
    const url = apiserverUrl({ ip: LB_IP });
    expect(url).toBe(`https://${LB_IP}:443`);
    const init = parseYaml(initKubeconfig(first.set, url)) as KubeconfigDoc;
    expect(init.clusters[0]!.cluster.server).toBe(url);
    expect(b64d(init.clusters[0]!.cluster['certificate-authority-data'])).toBe(first.set.clusterCA.certPem);
    expect(b64d(init.users[0]!.user['client-certificate-data'])).toBe(first.set.agentBootstrap.certPem);
    expect(b64d(init.users[0]!.user['client-key-data']) === first.set.agentBootstrap.keyPem).toBe(true);

    const admin = parseYaml(adminKubeconfig(first.set, url)) as KubeconfigDoc;
    expect([admin['current-context'], admin.contexts[0]!.name, admin.clusters[0]!.name, admin.users[0]!.name]).toEqual([
      'nova',
      'nova',
      'nova',
      'nova-admin',
    ]);
    expect(b64d(admin.users[0]!.user['client-certificate-data'])).toBe(first.set.admin.certPem);
    expect(b64d(admin.users[0]!.user['client-key-data']) === first.set.admin.keyPem).toBe(true);
    const named = parseYaml(adminKubeconfig(first.set, url, 'nova-prod')) as KubeconfigDoc;
    expect([named['current-context'], named.contexts[0]!.context.cluster, named.contexts[0]!.context.user]).toEqual([
      'nova-prod',
      'nova-prod',
      'nova-prod-admin',
    ]);

    expect(apiserverUrl({ hostname: 'lb.example.com' })).toBe('https://lb.example.com:443');
    expect(apiserverUrl({ ip: '2001:db8::10' })).toBe('https://[2001:db8::10]:443');
  });

  it('reads the set back from its Secrets, tolerating missing Secrets, keys and broken kubeconfigs', () => {
    const back = certSetFromSecrets(certSecrets(first.set, NS));
    const same = (a: Partial<KeyMaterial> | undefined, b: KeyMaterial) => a?.certPem === b.certPem && a?.keyPem === b.keyPem;
    for (const c of CAS) expect(same(back[c.field], first.set[c.field]), c.field).toBe(true);
    for (const l of LEAVES) expect(same(l.get(back as CertSet), l.get(first.set)), l.id).toBe(true);
    expect(back.serviceAccount?.privateKeyPem === first.set.serviceAccount.privateKeyPem).toBe(true);
    expect(back.serviceAccount?.publicKeyPem).toBe(first.set.serviceAccount.publicKeyPem);

    expect(certSetFromSecrets([])).toEqual({});
    expect(certSetFromSecrets([undefined, null, { metadata: { name: 'nova-admin' } }])).toEqual({});
    const partial = certSetFromSecrets([
      { metadata: { name: 'nova-scheduler' }, data: { kubeconfig: Buffer.from('{{ not yaml').toString('base64') } },
      { metadata: { name: 'nova-apiserver-certs' }, data: { 'ca.crt': Buffer.from(first.set.clusterCA.certPem).toString('base64') } },
      {
        metadata: { name: 'nova-etcd-certs' },
        data: { 'etcd-1-peer.crt': Buffer.from(first.set.etcd[1]!.peer.certPem).toString('base64') },
      },
    ]);
    expect(Object.keys(partial).sort()).toEqual(['clusterCA', 'etcd']);
    expect(partial.clusterCA?.certPem).toBe(first.set.clusterCA.certPem);
    expect(partial.clusterCA?.keyPem).toBeUndefined();
    expect(partial.etcd?.[1]?.peer?.certPem).toBe(first.set.etcd[1]!.peer.certPem);
    expect(partial.etcd?.[0]).toBeUndefined();
  });
});

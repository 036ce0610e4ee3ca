import { describe, expect, it } from 'vitest';
import type { CertDetail } from '../../../src/kube/certs/certs.js';
import { CERT_NOW, certDetail, DAY } from '../../helpers/objects/cert-detail.js';
import type { SecretCerts } from '../../../src/kube/certs/cert-sources.js';
import { CERT_SECRET_NAMES } from '../../../src/install/certs/specs.js';
import { agentInitRows, type CertRow, certState, controlPlaneRows, kubeconfigRows, residual } from '../../../src/report/certs/inventory.js';

const NOW = CERT_NOW;
const cert = certDetail;

function installedSecrets(): SecretCerts[] {
  const certs: Record<string, Record<string, CertDetail[]>> = {
    'nova-ca': { 'ca.crt': [cert('nova-ca', 3650)] },
    'nova-etcd-ca': { 'ca.crt': [cert('nova-etcd-ca', 3650)] },
    'nova-front-proxy-ca': { 'ca.crt': [cert('nova-front-proxy-ca', 3650)] },
    'nova-apiserver-certs': {
      'apiserver.crt': [cert('kube-apiserver', 365, ['DNS:apiserver', 'IP Address:10.96.0.1'])],
      'apiserver-etcd-client.crt': [cert('kube-apiserver-etcd-client', 365)],
      'front-proxy-client.crt': [cert('front-proxy-client', 365)],
    },
    'nova-etcd-certs': {
      'etcd-1-peer.crt': [cert('etcd-1', 365)],
      'etcd-0-server.crt': [cert('etcd-0', 365)],
      'etcd-0-peer.crt': [cert('etcd-0', 365)],
      'etcd-1-server.crt': [cert('etcd-1', 365)],
    },
    'nova-controller-manager': { kubeconfig: [cert('system:kube-controller-manager', 365)] },
    'nova-scheduler': { kubeconfig: [cert('system:kube-scheduler', 365)] },
    'nova-admin': { 'tls.crt': [cert('nova-admin', 365)] },
    'nova-agent-bootstrap': { 'tls.crt': [cert('nova-agent-bootstrap', 365)] },
  };
  return CERT_SECRET_NAMES.map((name) => {
    const c = certs[name]!;
    const keys = Object.keys(c).flatMap((k) => [k, k.replace('.crt', '.key')]);
    if (name === 'nova-apiserver-certs') keys.push('sa.key', 'sa.pub');
    return { name, state: 'read', keys, certs: c };
  });
}

describe('the control plane’s certificate rows', () => {
  it('lists every CA and leaf of the install, etcd members in order, and the service-account key with no expiry', () => {
    const rows = controlPlaneRows('elotl', installedSecrets());

    expect(rows.map((r) => r.name)).toEqual([
      'cluster-ca',
      'etcd-ca',
      'front-proxy-ca',
      'apiserver',
      'apiserver-etcd-client',
      'front-proxy-client',
      'etcd-0-server',
      'etcd-0-peer',
      'etcd-1-server',
      'etcd-1-peer',
      'controller-manager',
      'scheduler',
      'admin',
      'agent-bootstrap',
      'service-account-key',
    ]);
    expect(rows.find((r) => r.name === 'apiserver')).toMatchObject({
      sans: ['DNS:apiserver', 'IP Address:10.96.0.1'],
      source: 'Secret elotl/nova-apiserver-certs: apiserver.crt',
    });
    const sa = rows.at(-1)!;
    expect(sa.noExpiry).toBe(true);
    expect(residual(sa, NOW)).toBe('no expiry');
    expect(rows.every((r) => certState(r, NOW, 30) === 'ok')).toBe(true);
  });

  it('says "cannot read" for each certificate of a Secret the user may not read', () => {
    const secrets: SecretCerts[] = CERT_SECRET_NAMES.map((name) => ({
      name,
      state: 'error',
      message: 'forbidden: cannot get secrets in namespace elotl',
    }));

    const rows = controlPlaneRows('elotl', secrets);

    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.problem).toBe('cannot read (forbidden: cannot get secrets in namespace elotl)');
      expect(certState(r, NOW, 30)).toBe('fail');
    }
  });

  it('gives one missing row when no Secret of the set exists, and names a missing data key', () => {
    const none = controlPlaneRows(
      'elotl',
      CERT_SECRET_NAMES.map((name) => ({ name, state: 'missing' })),
    );
    expect(none).toHaveLength(1);
    expect(none[0]!.problem).toMatch(/no certificate Secret in namespace elotl/);

    const secrets = installedSecrets();
    const admin = secrets.find((s) => s.name === 'nova-admin')!;
    if (admin.state === 'read') admin.certs = {};
    const row = controlPlaneRows('elotl', secrets).find((r) => r.name === 'admin')!;
    expect(row.problem).toBe('missing (tls.crt holds no readable certificate in Secret nova-admin)');
  });
});

describe('agent and kubeconfig rows', () => {
  it('lists the init kubeconfig of each workload context, a missing one as failed', () => {
    const rows = agentInitRows('elotl', [
      {
        context: 'w1',
        secret: {
          name: 'nova-cluster-init-kubeconfig',
          state: 'read',
          keys: ['kubeconfig'],
          certs: { kubeconfig: [cert('nova-agent-bootstrap', 365)] },
        },
      },
      { context: 'w2', secret: { name: 'nova-cluster-init-kubeconfig', state: 'missing' } },
    ]);
    expect(rows.map((r) => [r.usedBy, certState(r, NOW, 30)])).toEqual([
      ['nova-agent in w1', 'ok'],
      ['nova-agent in w2', 'fail'],
    ]);
  });

  it('gives one row per certificate user with all its contexts, and skips token and exec users', () => {
    const { rows, skipped } = kubeconfigRows([
      { context: 'a', user: 'admin', kind: 'certificate', source: 'client-certificate-data', certs: [cert('admin', 10)] },
      { context: 'b', user: 'admin', kind: 'certificate', source: 'client-certificate-data', certs: [cert('admin', 10)] },
      { context: 'c', user: 'gone', kind: 'unreadable', source: '/x.crt', message: 'open /x.crt: no such file or directory' },
      { context: 'd', user: 'sso', kind: 'other', method: 'exec plugin' },
    ]);
    expect(rows.map((r) => [r.name, r.usedBy, r.problem ?? null])).toEqual([
      ['admin', 'context a, b', null],
      ['gone', 'context c', 'cannot read (open /x.crt: no such file or directory)'],
    ]);
    expect(skipped).toEqual([{ context: 'd', user: 'sso', method: 'exec plugin' }]);
  });
});

describe('state and residual time', () => {
  const row = (notAfter: number, notBefore = NOW - DAY): CertRow => ({
    name: 'x',
    group: 'kubeconfig',
    sans: [],
    usedBy: '',
    source: '',
    notAfter,
    notBefore,
  });

  it('is ok beyond the warning window, warn within it, fail when expired or not yet valid', () => {
    expect(certState(row(NOW + 31 * DAY), NOW, 30)).toBe('ok');
    expect(certState(row(NOW + 30 * DAY), NOW, 30)).toBe('warn');
    expect(certState(row(NOW + 5 * DAY), NOW, 0)).toBe('ok');
    expect(certState(row(NOW - 1), NOW, 30)).toBe('fail');
    expect(certState(row(NOW + 100 * DAY, NOW + DAY), NOW, 30)).toBe('fail');
  });

  it('says days, hours or minutes left, or how long ago it expired', () => {
    expect(residual(row(NOW + 364 * DAY + 5_000), NOW)).toBe('364d');
    expect(residual(row(NOW + 5 * 3_600_000 + 1), NOW)).toBe('5h');
    expect(residual(row(NOW + 12 * 60_000), NOW)).toBe('12m');
    expect(residual(row(NOW - 3 * DAY - 1), NOW)).toBe('expired 3d ago');
    expect(residual({ ...row(0), notAfter: undefined }, NOW)).toBe('-');
  });
});

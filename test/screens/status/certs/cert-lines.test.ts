import { describe, expect, it } from 'vitest';
import type { CertSources } from '../../../../src/kube/certs/cert-sources.js';
import { CERT_NOW, certDetail } from '../../../helpers/objects/cert-detail.js';
import { certPage } from '../../../../src/screens/status/certs/cert-lines.js';
import { certPane } from '../../../../src/screens/status/certs/cert-pane.js';

const NOW = CERT_NOW;
const cert = certDetail;

const sources: CertSources = {
  namespace: 'elotl',
  controlPlane: [
    {
      name: 'nova-apiserver-certs',
      state: 'read',
      keys: ['apiserver.crt', 'sa.pub'],
      certs: { 'apiserver.crt': [cert('kube-apiserver', 400, ['DNS:apiserver', 'IP Address:10.0.0.1'])] },
    },
  ],
  agents: [{ context: 'w1', secret: { name: 'nova-cluster-init-kubeconfig', state: 'missing' } }],
  credentials: [
    {
      context: 'old',
      user: 'a-user-with-a-name-longer-than-the-column',
      kind: 'certificate',
      certs: [cert('old', -3)],
      source: 'client-certificate-data',
    },
    { context: 'sso', user: 'sso', kind: 'other', method: 'exec plugin' },
  ],
};

const itemLines = (page: ReturnType<typeof certPage>) =>
  page.lines.flatMap((l) => (l.kind === 'check' ? [`${l.line.item.state} ${l.line.item.label}  ${l.line.item.detail}`] : []));

describe('the Certificates view’s lines', () => {
  it('groups the rows under headings, in aligned columns of name, residual time, expiry date and who uses it', () => {
    const page = certPage(sources, NOW, 30);

    expect(page.lines.filter((l) => l.kind === 'heading').map((l) => (l.kind === 'heading' ? l.text : ''))).toEqual([
      'Control plane (Secrets in namespace elotl of the hosting context)',
      "Agents' init kubeconfig (each workload context)",
      "Kubeconfig client certificates (every context's user)",
    ]);
    expect(itemLines(page)).toEqual([
      'ok apiserver               400d            2027-12-31  kube-apiserver (serving)',
      'fail apiserver-etcd-client   missing (no key apiserver-etcd-client.crt in Secret nova-apiserver-certs)  kube-apiserver -> etcd',
      'fail front-proxy-client      missing (no key front-proxy-client.crt in Secret nova-apiserver-certs)  kube-apiserver -> aggregated APIs',
      'ok service-account-key     no expiry                   kube-apiserver, kube-controller-manager (token signing)',
      'fail init-kubeconfig         missing (no Secret nova-cluster-init-kubeconfig)  nova-agent in w1',
      'fail a-user-with-a-name-lo…  expired 3d ago  2026-11-23  context old',
    ]);
    expect(page.lines.at(-1)).toEqual({ kind: 'text', text: 'not certificate-based, not listed: sso (exec plugin)' });
    expect(page.rows.map((r) => r.name)).toEqual([
      'apiserver',
      'apiserver-etcd-client',
      'front-proxy-client',
      'service-account-key',
      'init-kubeconfig',
      'a-user-with-a-name-longer-than-the-column',
    ]);
  });

  it('marks a certificate within the warning window ‼ and leaves out a group without rows', () => {
    const soon = { context: 'ci', user: 'ci', kind: 'certificate' as const, certs: [cert('ci', 7)], source: 'client-certificate-data' };
    const page = certPage({ namespace: 'elotl', agents: [], credentials: [soon] }, NOW, 30);
    expect(itemLines(page)).toEqual(['warn ci    7d  2026-12-03  context ci']);
    expect(page.lines.filter((l) => l.kind === 'heading')).toHaveLength(1);
  });

  it('shows the selected certificate in full: subject, issuer, validity, SANs, serial, source', () => {
    const pane = certPane(certPage(sources, NOW, 30).rows[0]!, NOW);
    expect(pane).toEqual({
      title: 'apiserver',
      facts: 'subject CN=kube-apiserver · issuer CN=nova-ca',
      paragraphs: [
        'valid 2026-11-25T12:00:00Z → 2027-12-31T12:00:00Z (400d)',
        'SANs: DNS:apiserver, IP Address:10.0.0.1',
        'serial: AB01',
        'used by: kube-apiserver (serving)',
        'source: Secret elotl/nova-apiserver-certs: apiserver.crt',
      ],
    });
  });
});

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CertSources } from '../../../../src/kube/certs/cert-sources.js';
import type { CertDetail } from '../../../../src/kube/certs/certs.js';
import type { CertsActions } from '../../../../src/store/actions.js';
import { updateSlice, type FleetStore } from '../../../../src/store/fleet-store.js';
import { novaFleet } from '../../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp } from '../../../helpers/screens/screen.js';

afterEach(() => cleanup());

const DAY = 86_400_000;

function cert(cn: string, issuer: string, daysLeft: number, sans: string[] = []): CertDetail {
  const now = Date.now();
  return {
    subject: `CN=${cn}`,
    issuer: `CN=${issuer}`,
    sans,
    serial: '0A1B2C',
    notBefore: now - 30 * DAY,
    notAfter: now + daysLeft * DAY + 3_600_000,
    isCA: cn === issuer,
  };
}

/**
 * What the feed read: a healthy CA and API server (with SANs), an admin certificate expiring in
 * 10 days, an agent whose init kubeconfig expired 3 days ago, one whose Secret may not be read,
 * the kubeconfig's admin user and a token user.
 */
function sources(): CertSources {
  return {
    namespace: 'elotl',
    controlPlane: [
      { name: 'nova-ca', state: 'read', keys: ['ca.crt'], certs: { 'ca.crt': [cert('nova-ca', 'nova-ca', 3649)] } },
      {
        name: 'nova-apiserver-certs',
        state: 'read',
        keys: ['apiserver-etcd-client.crt', 'apiserver.crt', 'front-proxy-client.crt', 'sa.pub'],
        certs: {
          'apiserver.crt': [cert('kube-apiserver', 'nova-ca', 364, ['IP Address:172.18.255.200', 'DNS:apiserver.elotl.svc'])],
          'apiserver-etcd-client.crt': [cert('kube-apiserver-etcd-client', 'nova-etcd-ca', 364)],
          'front-proxy-client.crt': [cert('front-proxy-client', 'nova-front-proxy-ca', 364)],
        },
      },
      { name: 'nova-admin', state: 'read', keys: ['tls.crt'], certs: { 'tls.crt': [cert('fleetdeck-admin', 'nova-ca', 10)] } },
    ],
    agents: [
      {
        context: 'kind-workload-1',
        secret: {
          name: 'nova-cluster-init-kubeconfig',
          state: 'read',
          keys: ['kubeconfig'],
          certs: { kubeconfig: [cert('nova-agent-bootstrap', 'nova-ca', -4)] },
        },
      },
      {
        context: 'kind-workload-2',
        secret: { name: 'nova-cluster-init-kubeconfig', state: 'error', message: 'forbidden: cannot get secrets in namespace elotl' },
      },
    ],
    credentials: [
      {
        context: 'kind-cp',
        user: 'kind-cp-admin',
        kind: 'certificate',
        certs: [cert('kind-cp-admin', 'sandbox-ca', 364)],
        source: 'client-certificate-data',
      },
      { context: 'ci', user: 'ci-bot', kind: 'other', method: 'token' },
    ],
  };
}

/** The fleet, the feed's answer in the certs slice, and actions that record what the screen asked for. */
function fleetWithCerts(): { store: FleetStore; calls: string[]; actions: CertsActions } {
  const store = novaFleet();
  updateSlice(store, 'certs', (s) => ({ ...s, sources: sources(), readAt: Date.now(), noFleet: false }));
  const calls: string[] = [];
  const actions: CertsActions = {
    show: () => calls.push('show'),
    hide: () => calls.push('hide'),
    refresh: () => calls.push('refresh'),
  };
  return { store, calls, actions };
}

const line = (frame: string, text: string) => frame.split('\n').find((l) => l.includes(text)) ?? '';

describe('Certificates view on the Status screen', () => {
  it('C shows every certificate with √, ‼ or ✗ by its residual time, who uses it, and what could not be read; Esc goes back', async () => {
    // Given the contexts table of a fleet whose certificates were read, in a terminal wide enough for every column
    const { store, calls, actions } = fleetWithCerts();
    const screen = await renderApp(appProps(store, { actions: { certs: actions } }), { columns: 130, rows: 30 });
    await screen.waitFor('Fleet elotl on kind-cp');
    expect(screen.frame()).toContain('N/P/C nodes/pods/certs');

    // When C is pressed
    await screen.press('C');

    // Then the view asks the feed to read and lists the rows by group, with the summary above them
    const frame = await screen.waitFor('Control plane (Secrets in namespace elotl');
    expect(calls).toEqual(['show']);
    expect(frame).toContain('✗ Certificates: 2 expired or unreadable · 1 expiring within 30 days · 6 ok');
    expect(line(frame, 'cluster-ca')).toMatch(/^√ cluster-ca\s+3649d\s+\d{4}-\d\d-\d\d\s+every component and client \(trust\)$/);
    expect(line(frame, 'apiserver ')).toMatch(/√ apiserver\s+364d\s+\S+\s+kube-apiserver \(serving\)/);
    expect(line(frame, 'admin ')).toMatch(/‼ admin\s+10d\s+\S+\s+the install's admin kubeconfig/);
    expect(line(frame, 'service-account-key')).toMatch(/√ service-account-key\s+no expiry/);
    expect(frame).toContain("Agents' init kubeconfig");
    expect(line(frame, 'in kind-workload-1')).toMatch(/✗ init-kubeconfig\s+expired 3d ago\s+\S+\s+nova-agent in kind-workload-1/);
    expect(line(frame, 'in kind-workload-2')).toMatch(
      /✗ init-kubeconfig\s+cannot read \(forbidden: cannot get secrets in namespace elotl\)/,
    );
    expect(line(frame, 'kind-cp-admin')).toMatch(/√ kind-cp-admin\s+364d\s+\S+\s+context kind-cp/);
    expect(frame).toContain('not certificate-based, not listed: ci (token)');
    expect(frame.split('\n').at(-1)).toMatch(/^c contexts · j\/k move · enter details · r read again/);

    // When Esc is pressed
    await screen.press(KEYS.esc);

    // Then the contexts table is back and the feed was told the view is gone
    await screen.waitFor((f) => f.includes('ROLE') && f.includes('Fleet elotl on kind-cp'));
    expect(calls).toEqual(['show', 'hide']);
  });

  it('Enter shows the selected certificate in full (subject, issuer, SANs); Esc closes it first; r reads again', async () => {
    // Given the Certificates view
    const { store, calls, actions } = fleetWithCerts();
    const screen = await renderApp(appProps(store, { actions: { certs: actions } }));
    await screen.waitFor('Fleet elotl on kind-cp');
    await screen.press('C');
    await screen.waitFor('cluster-ca');

    // When the API server's row is selected and Enter pressed
    await screen.press('j', KEYS.enter);

    // Then its subject, issuer, validity and SANs are shown under the list
    const frame = await screen.waitFor('SANs: IP Address:172.18.255.200');
    expect(frame).toContain('subject CN=kube-apiserver · issuer CN=nova-ca');
    expect(frame).toContain('DNS:apiserver.elotl.svc');
    expect(frame).toMatch(/valid \S+Z → \S+Z \(364d\)/);
    expect(frame).toContain('source: Secret elotl/nova-apiserver-certs: apiserver.crt');
    expect(frame.split('\n').at(-1)).toContain('enter/esc close details');

    // When Esc is pressed, the details close and the list stays
    await screen.press(KEYS.esc);
    const closed = await screen.waitFor((f) => !f.includes('SANs: ') && f.includes('enter details'));
    expect(closed).toContain('Control plane (Secrets');

    // When r is pressed, the feed is asked to read again
    await screen.press('r');
    expect(calls).toContain('refresh');
  });

  it('says it is reading before the first answer, and that only the kubeconfig is read without a fleet', async () => {
    // Given nothing read yet
    const store = novaFleet();
    const screen = await renderApp(appProps(store, { actions: { certs: { show() {}, hide() {}, refresh() {} } } }));
    await screen.waitFor('Fleet elotl on kind-cp');
    await screen.press('C');
    await screen.waitFor('Certificates: reading…');

    // When the feed answers without a fleet
    const { credentials } = sources();
    updateSlice(store, 'certs', (s) => ({
      ...s,
      sources: { namespace: 'elotl', agents: [], credentials },
      readAt: Date.now(),
      noFleet: true,
    }));

    // Then the kubeconfig's certificates are listed, with why the rest is not
    const frame = await screen.waitFor('Kubeconfig client certificates');
    expect(frame).toContain('no fleet defined');
    expect(frame).not.toContain('Control plane (Secrets');
    expect(frame).toContain('√ Certificates: 0 expired or unreadable · 0 expiring within 30 days · 1 ok');
  });

  for (const [columns, rows] of [
    [80, 24],
    [60, 16],
  ] as const) {
    it(`fits ${columns}×${rows}: no line as wide as the terminal, the frame shorter than it, the rows scroll`, async () => {
      // Given the Certificates view at that size
      const { store, actions } = fleetWithCerts();
      const screen = await renderApp(appProps(store, { actions: { certs: actions } }), { columns, rows });
      await screen.waitFor('Fleet elotl on kind-cp');
      await screen.press('C');
      const frame = await screen.waitFor('cluster-ca');

      // Then it fits
      const lines = frame.split('\n');
      expect(lines.length).toBeLessThan(rows);
      for (const l of lines) expect(l.length).toBeLessThan(columns);
      expect(lines.at(-1)).toMatch(/^c contexts/);

      // When the operator goes to the last row and opens it
      await screen.press('G', KEYS.enter);

      // Then the last row is in sight with its details, and it still fits
      const end = await screen.waitFor('subject CN=kind-cp-admin · issuer CN=sandbox-ca');
      expect(end).toMatch(/√ kind-cp-admin\s+364d/);
      expect(end.split('\n').length).toBeLessThan(rows);
      for (const l of end.split('\n')) expect(l.length).toBeLessThan(columns);
    });
  }
});

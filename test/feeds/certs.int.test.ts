import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCertsFeed } from '../../src/feeds/certs.js';
import { certsWork } from '../../src/feeds/certs-work.js';
import type { HeldActions } from '../../src/feeds/feed.js';
import { type StatusWatch, startStatusFeed } from '../../src/feeds/status-feed.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { createAuthority, issueCertificate } from '../../src/kube/certs/pki.js';
import { type CertRow, certInventory, certState, residual } from '../../src/report/certs/inventory.js';
import { openSession, type Session } from '../../src/session/session.js';
import { createFleetStore, type FleetStore } from '../../src/store/fleet-store.js';
import { writeCertSecrets } from '../helpers/sandbox/cert-secrets.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

/*
 * The Certificates view's feed on the sandbox: after the install's Secrets are written, the
 * rows `fleetdeck certs` lists appear in the store with their residual days; a renewed
 * Secret is read again at once (not at the next minute); the read-only user gets forbidden rows.
 */

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const NS = 'certs-feed-e2e';
const DAY = 86_400_000;

let secrets: Awaited<ReturnType<typeof writeCertSecrets>>;
let feeds: { certs?: HeldActions<'certs'>; status?: StatusWatch } = {};

beforeAll(async () => {
  secrets = await writeCertSecrets(kubeconfig, NS, 'kind-cp', 'kind-workload-1');
}, 120_000);

afterEach(async () => {
  feeds.certs?.stop();
  await feeds.status?.stop();
  feeds = {};
});

afterAll(async () => {
  await secrets?.dropNamespaces();
});

/** The fleet kind-cp → kind-workload-1 in NS, as `--hosting-context kind-cp --namespace NS --context kind-workload-1` gives it. */
function fleetSession(file: string): Session {
  return openSession({ kubeconfig: file, hostingContext: 'kind-cp', namespace: NS, context: ['kind-workload-1'] }, { useFleetFile: false });
}

/** The store's rows once `ok` holds for them (the feed's reads land in the certs slice). */
function rowsWhen(store: FleetStore, ok: (rows: CertRow[]) => boolean, timeoutMs = 60_000): Promise<CertRow[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const sources = store.getState().certs.sources;
      const rows = sources ? certInventory(sources).rows : undefined;
      if (rows && ok(rows)) {
        clearTimeout(timer);
        unsubscribe();
        resolve(rows);
      }
    };
    const timer = setTimeout(() => {
      unsubscribe();
      const { sources, readAt } = store.getState().certs;
      const rows = sources ? certInventory(sources).rows.map((r) => `${r.name}: ${r.problem ?? r.issuer}`) : undefined;
      reject(new Error(`rows not as expected within ${timeoutMs} ms (read at ${readAt}): ${JSON.stringify(rows)}`));
    }, timeoutMs);
    const unsubscribe = store.subscribe(check);
    check();
  });
}

const byName = (rows: CertRow[], name: string) => rows.find((r) => r.name === name);

describe('certs feed', () => {
  it('shows the control plane’s set, the agent’s init kubeconfig and the kubeconfig’s certificates with residual days, and reads a renewed Secret again at once', async () => {
    // Given the dashboard's store of the fleet, its status feed watching, and the certs feed shown (reading again only every 10 minutes)
    const session = fleetSession(kubeconfig);
    const store = createFleetStore(session.contexts, session.fleet);
    feeds.status = startStatusFeed(session.kc, session.contexts, { store, fleet: session.fleet });
    feeds.certs = startCertsFeed(
      store,
      certsWork(() => session),
      { intervalMs: 600_000 },
    );
    feeds.certs.show();

    // Then every certificate the install wrote is a row, fine, with its residual days
    const rows = await rowsWhen(store, (r) => r.some((row) => row.group === 'control-plane' && !row.problem));
    const now = Date.now();
    for (const name of ['cluster-ca', 'apiserver', 'etcd-0-server', 'controller-manager', 'admin', 'agent-bootstrap']) {
      const row = byName(rows, name);
      expect(row, name).toBeDefined();
      expect(certState(row!, now, 30), name).toBe('ok');
      expect(residual(row!, now), name).toMatch(/^\d+d$/);
    }
    expect(byName(rows, 'apiserver')!.sans).toContain('IP Address:172.18.255.210');
    expect(rows.find((r) => r.group === 'agent-init')).toMatchObject({ usedBy: 'nova-agent in kind-workload-1' });
    expect(rows.find((r) => r.group === 'agent-init')?.problem).toBeUndefined();
    expect(byName(rows, 'kind-cp-admin')).toMatchObject({ group: 'kubeconfig', usedBy: 'context kind-cp' });
    expect(store.getState().certs).toMatchObject({ shown: true, noFleet: false });
    const firstRead = store.getState().certs.readAt!;

    // When the admin certificate is renewed with one that expires in 10 days
    const ca = await createAuthority('renewal-test-ca', 3650);
    const short = await issueCertificate(ca, { commonName: 'fleetdeck-admin', usage: 'client', days: 10 });
    const core = makeClient(secrets.kc('kind-cp'), CoreV1Api);
    const admin = await core.readNamespacedSecret({ name: 'nova-admin', namespace: NS });
    admin.data = { ...admin.data, 'tls.crt': Buffer.from(short.certPem).toString('base64') };
    await core.replaceNamespacedSecret({ name: 'nova-admin', namespace: NS, body: admin });

    // Then the feed reads again on the Secret's change, long before its next round, and the row is ‼
    const after = await rowsWhen(store, (r) => byName(r, 'admin')?.issuer === 'CN=renewal-test-ca');
    expect(certState(byName(after, 'admin')!, Date.now(), 30)).toBe('warn');
    expect(residual(byName(after, 'admin')!, Date.now())).toMatch(/^(9|10)d$/);
    expect(byName(after, 'admin')!.notAfter! - Date.now()).toBeLessThan(11 * DAY);
    expect(store.getState().certs.readAt!).toBeGreaterThan(firstRead);
  }, 120_000);

  it('gives the read-only user "cannot read (forbidden …)" rows for the Secrets and its own certificate', async () => {
    // Given the read-only user's session
    const session = fleetSession(readOnlyKubeconfig);
    const store = createFleetStore(session.contexts, session.fleet);
    feeds.certs = startCertsFeed(
      store,
      certsWork(() => session),
    );

    // When the view is shown
    feeds.certs.show();

    // Then the control plane's and the agent's rows say the Secrets may not be read, and the user's own certificate is listed
    const rows = await rowsWhen(store, (r) => r.length > 0);
    const forbidden = `cannot read (forbidden: cannot get secrets in namespace ${NS})`;
    const cp = rows.filter((r) => r.group === 'control-plane');
    expect(cp.length).toBeGreaterThan(5);
    for (const r of cp) expect(r.problem, r.name).toBe(forbidden);
    expect(rows.find((r) => r.group === 'agent-init')?.problem).toBe(forbidden);
    const viewer = byName(rows, 'kind-cp-viewer');
    expect(viewer).toBeDefined();
    expect(certState(viewer!, Date.now(), 30)).toBe('ok');
  }, 120_000);
});

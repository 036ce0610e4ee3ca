import { describe, expect, it } from 'vitest';
import { startCertsFeed, type CertsWork } from '../../src/feeds/certs.js';
import type { CertSources } from '../../src/kube/certs/cert-sources.js';
import type { CertSummary } from '../../src/kube/certs/certs.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { info, NOVA_FLEET } from '../helpers/screens/fleets.js';

const sources = (namespace: string): CertSources => ({ namespace, agents: [], credentials: [] });

/** Reads that answer when the test says so, one promise per read. */
function heldWork() {
  const pending: ((s: CertSources) => void)[] = [];
  const work: CertsWork = {
    read: () => new Promise((resolve) => pending.push((s) => resolve({ sources: s, noFleet: false }))),
  };
  return { work, pending };
}

/** Settle what resolving a read queued (the feed's then and finally). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

function fleetStore() {
  return createFleetStore([info('kind-cp'), info('kind-workload-1')], NOVA_FLEET);
}

function watchedSecrets(store: ReturnType<typeof fleetStore>, certs: CertSummary[]) {
  const b = new UpdateBatcher(store, -1);
  b.setSlice('kind-cp', 'fleetNamespace', { synced: true, namespace: 'elotl', exists: true, workloads: [], pods: [], services: [], certs });
  b.flush();
}

const admin = (notAfter: number): CertSummary => ({ secret: 'nova-admin', key: 'tls.crt', subject: 'CN=nova-admin', notAfter });

describe('the certs feed', () => {
  it('reads when shown, one read at a time, and once more after a Secret changed during a read', async () => {
    // Given a shown view whose first read is under way
    const store = fleetStore();
    watchedSecrets(store, [admin(1)]);
    const held = heldWork();
    const feed = startCertsFeed(store, held.work, { now: () => 42 });
    feed.show();
    expect(held.pending).toHaveLength(1);
    expect(store.getState().certs).toMatchObject({ shown: true, reading: true });

    // When the status feed sees the admin Secret renewed, twice, during that read
    watchedSecrets(store, [admin(2)]);
    watchedSecrets(store, [admin(3)]);

    // Then no second read starts until the first answered; then exactly one more
    expect(held.pending).toHaveLength(1);
    held.pending[0]!(sources('first'));
    await settled();
    expect(store.getState().certs).toMatchObject({ sources: { namespace: 'first' }, readAt: 42 });
    expect(held.pending).toHaveLength(2);

    // When a watch update leaves the certificates as they were
    held.pending[1]!(sources('second'));
    await settled();
    watchedSecrets(store, [admin(3)]);

    // Then nothing is read again
    expect(held.pending).toHaveLength(2);
    expect(store.getState().certs).toMatchObject({ reading: false, sources: { namespace: 'second' } });
    feed.stop();
  });

  it('hidden by every view that showed it, it reads nothing on a change; after a session change the old answer is dropped', async () => {
    // Given a view shown once, then hidden
    const store = fleetStore();
    const held = heldWork();
    const feed = startCertsFeed(store, held.work);
    feed.show();
    held.pending[0]!(sources('one'));
    await settled();
    // The Day 2 page shows them too: hiding the Certificates view keeps them read for it
    feed.show('day2');
    feed.hide();
    expect(store.getState().certs.shown).toBe(true);
    feed.hide('day2');
    expect(store.getState().certs.shown).toBe(false);

    // When a Secret changes or r is pressed meanwhile
    watchedSecrets(store, [admin(5)]);
    feed.refresh();

    // Then nothing is read, and what was read stays
    expect(held.pending).toHaveLength(1);
    expect(store.getState().certs.sources?.namespace).toBe('one');

    // When it is shown again and the session changes while that read is under way
    feed.show();
    feed.restart();
    expect(store.getState().certs.sources).toBeUndefined();
    held.pending[1]!(sources('old session'));
    await settled();

    // Then the old session's answer is dropped and the new session is read
    expect(store.getState().certs.sources).toBeUndefined();
    expect(held.pending).toHaveLength(3);
    held.pending[2]!(sources('new session'));
    await settled();
    expect(store.getState().certs.sources?.namespace).toBe('new session');
    feed.stop();
  });

  it('keeps what it read when a read fails, and says why', async () => {
    const store = fleetStore();
    let fail = false;
    const feed = startCertsFeed(store, {
      read: async () => {
        if (fail) throw new Error('context kind-cp: connection refused');
        return { sources: sources('ok'), noFleet: false };
      },
    });
    feed.show();
    await settled();
    fail = true;
    feed.refresh();
    await settled();
    expect(store.getState().certs).toMatchObject({
      sources: { namespace: 'ok' },
      error: 'context kind-cp: connection refused',
      reading: false,
    });
    feed.stop();
  });
});

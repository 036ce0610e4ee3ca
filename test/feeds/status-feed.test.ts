import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { startStatusFeed, statusFeed } from '../../src/feeds/status-feed.js';
import type { Session } from '../../src/session/session.js';
import { DEFAULT_WARN_DAYS } from '../../src/store/certs.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { startFeed } from '../helpers/feeds/feeds.js';
import { info } from '../helpers/screens/fleets.js';
import { unreachableKubeConfig } from '../helpers/kubeconfig/fake-contexts.js';

/** A session of these contexts over a closed port; `kc` of a context in `broken` throws, as a half-edited kubeconfig's. */
function sessionOf(names: string[], asked: string[], broken: string[] = []): Session {
  const kc = (context: string) => {
    asked.push(context);
    if (broken.includes(context)) throw new Error(`context "${context}" names user "u", which is not in the kubeconfig`);
    return unreachableKubeConfig(context);
  };
  return { contexts: names.map(info), files: [], kc } as unknown as Session;
}

describe('the status feed’s store', () => {
  it('flags certificates within --warn-days (as `status --watch` passes it), else within the default', async () => {
    const given = startStatusFeed(new KubeConfig(), [], { warnDays: 90 });
    const unset = startStatusFeed(new KubeConfig(), [], {});
    expect(given.store.getState().certs.warnDays).toBe(90);
    expect(unset.store.getState().certs.warnDays).toBe(DEFAULT_WARN_DAYS);
    await Promise.all([given.stop(), unset.stop()]);
  });

  it('a session it cannot watch is said on the banner; the next session is still followed', async () => {
    const store = createFleetStore([info('a')]);
    const asked: string[] = [];
    const feed = startFeed(store, statusFeed({ requestTimeoutMs: 200 }), sessionOf(['a'], asked));
    feed.restart(sessionOf(['a', 'x'], asked, ['x']));
    await vi.waitFor(() =>
      expect(store.getState().banner).toMatchObject({ kind: 'error', text: expect.stringContaining('status: context "x"') }),
    );
    asked.length = 0;
    feed.restart(sessionOf(['b'], asked));
    await vi.waitFor(() => expect(asked).toContain('b'));
    expect(store.getState().status.order).toEqual(['b']);
    await feed.stop();
  });
});

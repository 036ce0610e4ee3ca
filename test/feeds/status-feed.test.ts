import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { startStatusFeed } from '../../src/feeds/status-feed.js';
import { DEFAULT_WARN_DAYS } from '../../src/store/certs.js';

describe('the status feed’s store', () => {
  it('flags certificates within --warn-days (as `status --watch` passes it), else within the default', async () => {
    const given = startStatusFeed(new KubeConfig(), [], { warnDays: 90 });
    const unset = startStatusFeed(new KubeConfig(), [], {});
    expect(given.store.getState().certs.warnDays).toBe(90);
    expect(unset.store.getState().certs.warnDays).toBe(DEFAULT_WARN_DAYS);
    await Promise.all([given.stop(), unset.stop()]);
  });
});

import { describe, expect, it } from 'vitest';
import { contextRow } from '../../../src/screens/status/context-row.js';
import { emptyContext } from '../../../src/store/status.js';
import { AT_10_42_07, info, NOVA_FLEET, pods, warning } from '../../helpers/screens/fleets.js';

describe('contextRow', () => {
  it('keeps STATUS short and puts since when and why under the row; pods, warnings and denied lists', () => {
    // Given an unreachable context whose pods and events are forbidden
    const ctx = {
      ...emptyContext(info('prod')),
      reachability: 'unreachable' as const,
      unreachableSince: AT_10_42_07,
      lastError: 'i/o timeout',
      pods: { ...pods(), synced: false, forbidden: 'cannot list pods' },
      events: { synced: true, warnings: [warning('BackOff', 'Pod a/b', 1)] },
    };
    // Then
    const row = contextRow(ctx, NOVA_FLEET);
    expect(row).toMatchObject({ status: 'unreachable', reason: 'since 10:42:07: i/o timeout', role: '-', warn: '1', warnTone: 'warn' });
    expect(row.pods).toEqual([{ text: 'denied', color: 'warn' }]);
    expect(contextRow({ ...ctx, pods: pods({ total: 142, problemCount: 3 }) }, undefined).pods).toEqual([
      { text: '142' },
      { text: ', 3 bad', color: 'warn' },
    ]);
  });

  it('a reachable server that is not ready: STATUS "not ready", since when and why under the row', () => {
    // Given a context whose API server answers but whose etcd is down
    const ctx = {
      ...emptyContext(info('prod')),
      reachability: 'reachable' as const,
      latencyMs: 4,
      notReady: 'etcd failed',
      notReadySince: AT_10_42_07,
    };
    // Then
    expect(contextRow(ctx, undefined)).toMatchObject({ status: 'not ready', notReady: true, reason: 'since 10:42:07: etcd failed' });
  });
});

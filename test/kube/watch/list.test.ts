import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { listPaged } from '../../../src/kube/watch/list.js';

describe('listPaged', () => {
  it('follows continue tokens, maps each item and returns the list resourceVersion', async () => {
    const calls: { limit?: number; _continue?: string }[] = [];
    const pages: Record<string, { items: number[]; metadata: { _continue?: string; resourceVersion: string } }> = {
      '': { items: [1, 2], metadata: { _continue: 'c1', resourceVersion: '100' } },
      c1: { items: [3, 4], metadata: { _continue: 'c2', resourceVersion: '100' } },
      c2: { items: [5], metadata: { resourceVersion: '100' } },
    };
    const res = await listPaged(
      async (o) => {
        calls.push(o);
        return pages[o._continue ?? '']!;
      },
      (n: number) => n * 10,
      2,
    );
    expect(res).toEqual({ items: [10, 20, 30, 40, 50], metadata: { resourceVersion: '100' } });
    expect(calls).toEqual([{ limit: 2 }, { limit: 2, _continue: 'c1' }, { limit: 2, _continue: 'c2' }]);
  });

  it('falls back to one full list when a continue token expired (410)', async () => {
    const calls: { limit?: number; _continue?: string }[] = [];
    const res = await listPaged(
      async (o) => {
        calls.push(o);
        if (o._continue) throw new ApiException(410, 'Gone', {}, {});
        if (o.limit) return { items: [1], metadata: { _continue: 'c1', resourceVersion: '5' } };
        return { items: [1, 2, 3], metadata: { resourceVersion: '9' } };
      },
      (n: number) => n,
    );
    expect(res).toEqual({ items: [1, 2, 3], metadata: { resourceVersion: '9' } });
    expect(calls).toEqual([{ limit: 500 }, { limit: 500, _continue: 'c1' }, {}]);
  });

  it('passes other errors on (the watch retries with backoff)', async () => {
    await expect(
      listPaged(
        async () => Promise.reject(new ApiException(403, 'Forbidden', {}, {})),
        (n: number) => n,
      ),
    ).rejects.toThrow();
  });
});

import { describe, expect, it, vi } from 'vitest';
import type { CheckItem } from '../../src/checklist/checklist.js';
import { startPrepareFeed } from '../../src/feeds/prepare.js';
import type { Session } from '../../src/session/session.js';
import { createFleetStore } from '../../src/store/fleet-store.js';

const ITEMS: CheckItem[] = [{ id: 'swap', label: 'Swap off', state: 'fail' }];

describe('the prepare feed', () => {
  it('runs the checks once at a time with the session as it is now, and keeps the answer of the last run', async () => {
    const store = createFleetStore([]);
    const session = { contexts: [] } as unknown as Session;
    const seen: Session[] = [];
    const answers: ((items: CheckItem[]) => void)[] = [];
    const feed = startPrepareFeed(
      store,
      () => session,
      (s) => {
        seen.push(s);
        return new Promise((resolve) => answers.push(resolve));
      },
    );
    feed.run();
    feed.run();
    expect(answers).toHaveLength(1);
    expect(seen).toEqual([session]);
    expect(store.getState().prepare.state).toEqual({ status: 'running', run: 1 });
    answers[0]!(ITEMS);
    await vi.waitFor(() => expect(store.getState().prepare.state).toEqual({ status: 'done', run: 1, items: ITEMS }));
  });

  it('says why the checks could not run', async () => {
    const store = createFleetStore([]);
    const feed = startPrepareFeed(
      store,
      () => ({}) as Session,
      () => Promise.reject(new Error('cannot read /proc')),
    );
    feed.run();
    await vi.waitFor(() => expect(store.getState().prepare.state).toEqual({ status: 'error', run: 1, error: 'cannot read /proc' }));
  });
});

import { describe, expect, it, vi } from 'vitest';
import { startApprovalsFeed, type ApprovalsWork } from '../../src/feeds/approvals.js';
import type { CsrSummary } from '../../src/kube/csr/index.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { info } from '../helpers/screens/fleets.js';

const csr = (name: string, condition: CsrSummary['condition'] = 'Pending') => ({ name, condition }) as CsrSummary;

function fakeWork() {
  const watching = new Map<string, { onChange: (c: CsrSummary[]) => void; onError: (m: string) => void }>();
  const decided: string[] = [];
  const work: ApprovalsWork = {
    watch: (context, onChange, onError) => {
      watching.set(context, { onChange, onError });
      return () => void watching.delete(context);
    },
    decide: async (context, name, decision) => {
      decided.push(`${context}/${name}/${decision}`);
      return decision === 'Approved' ? `${name}: approved` : `${name}: not denied: read-only: denying is refused`;
    },
  };
  return { work, watching, decided };
}

describe('the approvals feed', () => {
  it('watches the open context only, and its answers land in the slice', () => {
    const store = createFleetStore([info('a'), info('b')]);
    const fake = fakeWork();
    const feed = startApprovalsFeed(store, fake.work);
    feed.open('a');
    expect([...fake.watching.keys()]).toEqual(['a']);
    fake.watching.get('a')!.onChange([csr('x'), csr('y', 'Issued')]);
    expect(store.getState().approvals).toMatchObject({ context: 'a', csrs: [csr('x'), csr('y', 'Issued')] });
    fake.watching.get('a')!.onError('watch failed');
    expect(store.getState().approvals.error).toBe('watch failed');

    const stale = fake.watching.get('a')!;
    feed.open('b');
    expect([...fake.watching.keys()]).toEqual(['b']);
    stale.onChange([csr('late')]);
    expect(store.getState().approvals).toEqual({ status: 'off', context: 'b' });

    feed.close();
    expect(fake.watching.size).toBe(0);
    expect(store.getState().approvals).toEqual({ status: 'off' });
  });

  it('approve and deny ask the cluster for the open context; the answer is the last action line', async () => {
    const store = createFleetStore([info('a')]);
    const fake = fakeWork();
    const feed = startApprovalsFeed(store, fake.work);
    feed.open('a');
    feed.approve('x');
    expect(store.getState().approvals.busy).toBe('x');
    await vi.waitFor(() => expect(store.getState().approvals.line).toEqual({ text: 'x: approved', kind: 'ok' }));
    expect(store.getState().approvals.busy).toBeUndefined();
    feed.deny('y');
    await vi.waitFor(() =>
      expect(store.getState().approvals.line).toEqual({ text: 'y: not denied: read-only: denying is refused', kind: 'fail' }),
    );
    expect(fake.decided).toEqual(['a/x/Approved', 'a/y/Denied']);
  });
});

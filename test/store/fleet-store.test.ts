import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFleetStore, setBanner } from '../../src/store/fleet-store.js';

afterEach(() => vi.useRealTimers());

describe('the banner', () => {
  it('stays until replaced; a notice given a time clears itself then, unless another replaced it', () => {
    vi.useFakeTimers();
    const store = createFleetStore([]);
    setBanner(store, { kind: 'info', text: 'sandbox running' });
    vi.advanceTimersByTime(60_000);
    expect(store.getState().banner?.text).toBe('sandbox running');

    setBanner(store, { kind: 'info', text: 'kubeconfig changed' }, 15_000);
    vi.advanceTimersByTime(14_999);
    expect(store.getState().banner?.text).toBe('kubeconfig changed');
    vi.advanceTimersByTime(1);
    expect(store.getState().banner).toBeUndefined();

    setBanner(store, { kind: 'info', text: 'first notice' }, 15_000);
    setBanner(store, { kind: 'error', text: 'a feed failed' });
    vi.advanceTimersByTime(20_000);
    expect(store.getState().banner?.text).toBe('a feed failed');
  });
});

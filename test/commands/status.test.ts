import { afterEach, describe, expect, it } from 'vitest';
import { statusWaitMs } from '../../src/commands/status.js';
import { setRequestTimeout } from '../../src/kube/transport/request-timeout.js';

describe('how long a one-shot status waits for every context', () => {
  afterEach(() => setRequestTimeout(undefined));

  it('15 s by default and with a shorter --request-timeout; longer when the flag is longer; 0 waits as long as it takes', () => {
    expect(statusWaitMs()).toBe(15_000);
    setRequestTimeout(5_000);
    expect(statusWaitMs()).toBe(15_000);
    setRequestTimeout(60_000);
    expect(statusWaitMs()).toBe(60_000);
    setRequestTimeout(0);
    expect(statusWaitMs()).toBe(2 ** 31 - 1);
  });
});

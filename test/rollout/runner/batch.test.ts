import { describe, expect, it } from 'vitest';
import { batchStop } from '../../../src/rollout/runner/batch.js';
import { NodeStop } from '../../../src/rollout/runner/context.js';

describe('batchStop: how a batch whose nodes stopped ends the run', () => {
  it('an error that is no NodeStop wins (an abort, a write that failed for good)', () => {
    const abort = new Error('interrupted');
    expect(batchStop([new NodeStop('pause', 'a'), abort, new NodeStop('fail', 'b')])).toBe(abort);
  });

  it('a failed node fails the rollout even when another only paused it', () => {
    const fail = new NodeStop('fail', 'cannot drain node n2: needs --force');
    expect(batchStop([new NodeStop('pause', 'drain of node n1 timed out'), fail])).toBe(fail);
  });

  it('otherwise the first pause', () => {
    const first = new NodeStop('pause', 'first');
    expect(batchStop([first, new NodeStop('pause', 'second')])).toBe(first);
  });
});

import { describe, expect, it } from 'vitest';
import { uniqueName } from '../../../src/feeds/rollouts/wizard-spec.js';

describe('the new rollout name', () => {
  it('a new name avoids the rollouts that exist', () => {
    expect(uniqueName('rollout-1', [])).toBe('rollout-1');
    expect(uniqueName('rollout-1', ['rollout-1', 'rollout-1-2'])).toBe('rollout-1-3');
  });
});

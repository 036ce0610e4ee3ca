import { describe, expect, it } from 'vitest';
import { specFromOptions } from '../../../src/commands/rollout/spec.js';
import { usage } from '../../helpers/objects/rollout.js';

describe('the create flags', () => {
  it('pairs each --selector/--node with its --priority (default 0) and adds the file’s', () => {
    const s = specFromOptions(
      {
        targets: [
          { kind: 'selector', value: 'role=master', priority: 20 },
          { kind: 'selector', value: 'role=worker' },
          { kind: 'node', value: 'n-1', priority: 30 },
        ],
        maxUnavailable: 2,
        replace: 'uncordon',
        force: true,
        timeout: 60_000,
        healthPasses: 1,
      },
      'ctx',
      'r1',
      { nodeSelectors: [{ selector: 'zone=a', priority: 5 }], nodeNames: [] },
    );
    expect(s.nodeSelectors).toEqual([
      { selector: 'zone=a', priority: 5 },
      { selector: 'role=master', priority: 20 },
      { selector: 'role=worker', priority: 0 },
    ]);
    expect(s.nodeNames).toEqual([{ name: 'n-1', priority: 30 }]);
    expect(s).toMatchObject({
      maxUnavailable: 2,
      replace: 'uncordon',
      drain: { force: true, deleteEmptyDirData: false, timeoutMs: 60_000 },
      health: { passes: 1, intervalMs: 5_000, timeoutMs: 600_000 },
    });
    expect(usage(() => specFromOptions({}, 'ctx', 'r1')).message).toMatch(/needs nodes/);
    expect(usage(() => specFromOptions({ targets: [{ kind: 'selector', value: 'a in (' }] }, 'ctx', 'r1')).message).toMatch(
      /invalid selector "a in \("/,
    );
    expect(specFromOptions({ targets: [{ kind: 'node', value: 'n' }] }, 'ctx', 'r1')).toMatchObject({
      replace: 'wait',
      maxUnavailable: 1,
      drain: { timeoutMs: 900_000 },
    });
  });
});

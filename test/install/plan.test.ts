import { describe, expect, it } from 'vitest';
import { installSteps } from '../../src/install/plan.js';

describe('installSteps', () => {
  it("lists the guide's steps with one row per workload cluster, fleet last", () => {
    const ids = installSteps({
      workloads: [{ context: 'w1', clusterName: 'one' } as never, { context: 'w2', clusterName: 'two' } as never],
      dryRun: false,
    }).map((s) => s.id);
    expect(ids).toEqual([
      'namespace',
      'service',
      'certs',
      'control-plane',
      'components',
      'endpoint',
      'kubeconfig',
      'crds',
      'ready',
      'agent:w1',
      'agent:w2',
      'fleet',
    ]);
  });
});

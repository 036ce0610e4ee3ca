import { describe, expect, it } from 'vitest';
import { waitApiSettled } from '../../../src/kube/fleet/api-settled.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

describe('waitApiSettled', () => {
  it('resolves once a live API server answered ready the asked number of times in a row', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
    await expect(waitApiSettled(kc, { inARow: 2, timeoutMs: 30_000, intervalMs: 100 })).resolves.toBeUndefined();
  });

  it('throws the last reason when nothing answers before the deadline', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
    // The same credentials, pointed at a port nothing listens on.
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error('the context has no cluster');
    kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: 'https://127.0.0.1:1' } : c));
    await expect(waitApiSettled(kc, { inARow: 1, timeoutMs: 300, intervalMs: 100 })).rejects.toThrow(/.+/);
  });

  it('stops when its signal is aborted', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
    const ac = new AbortController();
    ac.abort(new Error('stopped'));
    await expect(waitApiSettled(kc, { inARow: 3, timeoutMs: 30_000, signal: ac.signal })).rejects.toThrow('stopped');
  });
});

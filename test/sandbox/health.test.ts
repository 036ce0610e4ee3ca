import { describe, expect, it } from 'vitest';
import { clusterProblem, sandboxVerdict, type ClusterHealth } from '../../src/sandbox/health.js';

const ok: ClusterHealth = {
  context: 'kind-workload-1',
  server: 'https://127.0.0.1:6443',
  apiserver: 'ready',
  processes: { running: 4, expected: 4, down: [] },
  nodes: { ready: 2, total: 2 },
};
const logs = (role: string) => `/s/logs/${role}.log`;
const running = { running: true, phase: 'ready' as const, dir: '/s' };

describe('clusterProblem', () => {
  it('says nothing about a healthy cluster', () => {
    expect(clusterProblem(ok, '', logs)).toBeUndefined();
  });

  it('names a stopped API server and the command that starts it', () => {
    const c: ClusterHealth = { ...ok, apiserver: 'stopped', processes: { running: 3, expected: 4, down: ['kube-apiserver'] }, nodes: null };
    expect(clusterProblem(c, ' --dir /s', logs)).toBe(
      'kind-workload-1 is down: its API server was stopped (sandbox stop-apiserver); start it with: fleetdeck sandbox start-apiserver kind-workload-1 --dir /s',
    );
  });

  it('names an API server that died and its log', () => {
    const c: ClusterHealth = { ...ok, apiserver: 'down', processes: { running: 3, expected: 4, down: ['kube-apiserver'] }, nodes: null };
    expect(clusterProblem(c, '', logs)).toBe(
      'kind-workload-1 is down: its API server is not running (log: /s/logs/kube-apiserver.log); start it with: fleetdeck sandbox start-apiserver kind-workload-1',
    );
  });

  it('names each dead process, with the restart that brings it back', () => {
    const c: ClusterHealth = { ...ok, apiserver: 'not ready', processes: { running: 3, expected: 4, down: ['etcd'] }, error: 'timeout' };
    expect(clusterProblem(c, '', logs)).toBe(
      'kind-workload-1 is down: etcd is not running (log: /s/logs/etcd.log); API server not ready; restart the sandbox: fleetdeck sandbox down && fleetdeck sandbox up',
    );
  });

  it('calls a cluster with nodes not Ready degraded', () => {
    expect(clusterProblem({ ...ok, nodes: { ready: 1, total: 2 } }, '', logs)).toMatch(/^kind-workload-1 is degraded: 1\/2 nodes Ready;/);
  });
});

describe('sandboxVerdict', () => {
  it('is healthy only when every cluster is', () => {
    expect(sandboxVerdict({ ...running, clusters: [ok, { ...ok, context: 'kind-cp' }] }, '')).toEqual({ healthy: true });
    const down: ClusterHealth = { ...ok, apiserver: 'stopped' };
    expect(sandboxVerdict({ ...running, clusters: [{ ...ok, context: 'kind-cp' }, down] }, '')).toEqual({
      healthy: false,
      problem: '1 of 2 clusters not healthy: kind-workload-1',
    });
  });

  it('is not healthy while the supervisor is still starting', () => {
    expect(sandboxVerdict({ ...running, phase: 'starting', clusters: [ok] }, ' --dir /s')).toEqual({
      healthy: false,
      problem: 'the sandbox is starting; wait for `fleetdeck sandbox up --dir /s` to finish',
    });
  });
});

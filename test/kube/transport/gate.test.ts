import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, kubeConfigFromString, mergeKubeConfigs } from '../../../src/kube/config/kubeconfig.js';
import { changesCluster, gateOf, ReadOnlyRefusal, setGate, writeGate } from '../../../src/kube/transport/gate.js';

/** A context whose API server is a closed port: a request that gets past the gate fails to connect. */
function closedPortConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

describe('the write gate', () => {
  it('tells reads, reviews and server-side dry runs from changes', () => {
    expect(changesCluster('GET', 'https://h/api/v1/nodes')).toBe(false);
    expect(changesCluster('head', 'https://h/version')).toBe(false);
    expect(changesCluster('POST', 'https://h/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).toBe(false);
    expect(changesCluster('POST', 'https://h/api/v1/namespaces/x/pods/p/eviction?dryRun=All')).toBe(false);
    expect(changesCluster('POST', 'https://h/api/v1/namespaces/x/pods/p/eviction')).toBe(true);
    expect(changesCluster('PATCH', 'https://h/api/v1/nodes/n1')).toBe(true);
    expect(changesCluster('PUT', 'https://h/apis/certificates.k8s.io/v1/certificatesigningrequests/c/approval')).toBe(true);
    expect(changesCluster('DELETE', 'https://h/api/v1/nodes/n1')).toBe(true);
  });

  it('lets everything through when not read-only', () => {
    const gate = writeGate(false);
    expect(gate.readOnly).toBe(false);
    expect(() => gate.check('DELETE', 'https://h/api/v1/nodes/n1')).not.toThrow();
    expect(() => gate.assertWritable('rollout abort uncordons nodes')).not.toThrow();
  });

  it('refuses a change under --read-only with one line naming it, and lets reads through', () => {
    const gate = writeGate(true);
    expect(gate.readOnly).toBe(true);
    expect(() => gate.check('GET', 'https://h/api/v1/nodes')).not.toThrow();
    expect(() => gate.check('POST', 'https://h/api/v1/namespaces/x/pods/p/eviction?dryRun=All')).not.toThrow();
    expect(() => gate.check('PATCH', 'https://h/api/v1/nodes/n1?fieldManager=x')).toThrow(ReadOnlyRefusal);
    expect(() => gate.check('PATCH', 'https://h/api/v1/nodes/n1')).toThrow(
      'read-only: PATCH /api/v1/nodes/n1 is refused (fleetdeck runs with --read-only)',
    );
    // Its functions are passed around on their own (session.assertWritable).
    const { assertWritable } = gate;
    const refusal = (() => {
      try {
        assertWritable('rollout create cordons, drains and replaces nodes', ' (use --dry-run to see what it would do)');
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(ReadOnlyRefusal);
    expect((refusal as ReadOnlyRefusal).exitCode).toBe(2);
    expect((refusal as Error).message).toBe(
      'rollout create cordons, drains and replaces nodes and is refused with --read-only (use --dry-run to see what it would do)',
    );
  });

  it('stops every request of a client whose KubeConfig has a read-only gate that would change a cluster, before it is sent', async () => {
    const closed = setGate(closedPortConfig(), writeGate(true));
    const core = makeClient(closed, CoreV1Api, 5_000);
    await expect(core.patchNode({ name: 'n1', body: [{ op: 'replace', path: '/spec/unschedulable', value: true }] })).rejects.toThrow(
      ReadOnlyRefusal,
    );
    await expect(core.deleteNamespace({ name: 'elotl' })).rejects.toThrow(ReadOnlyRefusal);
    // A read goes on to the network (and meets the closed port): the gate does not stop it.
    const read = await core.listNode().catch((err: unknown) => err);
    expect(read).not.toBeInstanceOf(ReadOnlyRefusal);
    expect(read).toBeInstanceOf(Error);
    // Not read-only: the same change goes out too (and fails on the network, not at the gate).
    const open = makeClient(setGate(closedPortConfig(), writeGate(false)), CoreV1Api, 5_000);
    const sent = await open.deleteNamespace({ name: 'elotl' }).catch((err: unknown) => err);
    expect(sent).not.toBeInstanceOf(ReadOnlyRefusal);
    expect(sent).toBeInstanceOf(Error);
  });

  it('lets every request of a KubeConfig made outside any session through', async () => {
    const kc = closedPortConfig();
    expect(gateOf(kc)).toBeUndefined();
    const sent = await makeClient(kc, CoreV1Api, 5_000)
      .deleteNamespace({ name: 'elotl' })
      .catch((err: unknown) => err);
    expect(sent).not.toBeInstanceOf(ReadOnlyRefusal);
    expect(sent).toBeInstanceOf(Error);
  });

  it("gives a context's own KubeConfig the gate of the kubeconfig it comes from", async () => {
    const gate = writeGate(true);
    const one = configForContext(setGate(closedPortConfig(), gate), 'ctx');
    expect(gateOf(one)).toBe(gate);
    await expect(makeClient(one, CoreV1Api, 5_000).deleteNode({ name: 'n1' })).rejects.toThrow(
      'read-only: DELETE /api/v1/nodes/n1 is refused (fleetdeck runs with --read-only)',
    );
    expect(gateOf(configForContext(closedPortConfig(), 'ctx'))).toBeUndefined();
  });

  it('gives a KubeConfig a workflow builds from text (the control plane’s admin one) or merges the gate of the KubeConfigs it comes from', async () => {
    const gate = writeGate(true);
    const text = closedPortConfig().exportConfig();
    const built = kubeConfigFromString(text, setGate(closedPortConfig(), gate));
    expect(gateOf(built)).toBe(gate);
    await expect(makeClient(built, CoreV1Api, 5_000).createNamespace({ body: { metadata: { name: 'x' } } })).rejects.toThrow(
      'read-only: POST /api/v1/namespaces is refused (fleetdeck runs with --read-only)',
    );
    expect(gateOf(kubeConfigFromString(text, closedPortConfig()))).toBeUndefined();
    // Merged with another (the install's fleet step): the gate goes with it too
    expect(gateOf(mergeKubeConfigs([closedPortConfig(), built], 'ctx'))).toBe(gate);
    expect(gateOf(mergeKubeConfigs([closedPortConfig()], 'ctx'))).toBeUndefined();
  });
});

import { CoreV1Api, type V1ObjectMeta, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeJsonClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { listJsonPaged, listProtoPaged, toMs } from '../../../src/kube/watch/list.js';
import { podEntry, podState, slimPod } from '../../../src/kube/pods/pods.js';
import { decodePodEntry } from '../../../src/kube/protobuf/pod-entry.js';
import { decodeSlimPod } from '../../../src/kube/protobuf/pod.js';
import { FAULT_ANNOTATION } from '../../../src/sandbox/sim/index.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-1';
const NS = 'protobuf-pods';

/** Metadata with its times as epoch ms. */
const instants = (m: V1ObjectMeta | undefined) =>
  m && { ...m, creationTimestamp: toMs(m.creationTimestamp), deletionTimestamp: toMs(m.deletionTimestamp) };

describe('pods listed in protobuf read the same as in JSON (real API server)', () => {
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  const core = makeClient(kc, CoreV1Api);
  const client = makeJsonClient(kc, 30_000);
  const byName = <T extends { metadata?: { namespace?: string; name?: string } }>(items: T[]) =>
    new Map(items.map((p) => [`${p.metadata?.namespace}/${p.metadata?.name}`, p]));

  beforeAll(async () => {
    await createNamespace(core, NS);
    const pause = { name: 'app', image: 'registry.k8s.io/pause:3.9' };
    for (const fault of ['CrashLoopBackOff', 'ImagePullBackOff', 'NotReady', undefined]) {
      await core.createNamespacedPod({
        namespace: NS,
        body: {
          metadata: { name: `p-${(fault ?? 'ok').toLowerCase()}`, ...(fault ? { annotations: { [FAULT_ANNOTATION]: fault } } : {}) },
          spec: { containers: [pause], initContainers: [{ ...pause, name: 'setup' }] },
        },
      });
    }
    await eventually('the four pods have container states', async () => {
      const pods = (await core.listNamespacedPod({ namespace: NS })).items;
      return pods.length === 4 && pods.every((p) => p.status?.containerStatuses?.[0]?.state);
    });
  });
  afterAll(async () => {
    await core.deleteNamespace({ name: NS }).catch(() => {});
  });

  it('every pod of the cluster: the same slim object and the same verdict; the same resourceVersion', async () => {
    const json = await listJsonPaged(client, '/api/v1/pods', {}, slimPod, { watchCache: true });
    const proto = await listProtoPaged(client, '/api/v1/pods', {}, decodeSlimPod, slimPod, { watchCache: true });
    const j = byName(json.items);
    const p = byName(proto.items);
    expect([...p.keys()].sort()).toEqual([...j.keys()].sort());
    expect([...p.keys()].filter((k) => k.startsWith(`${NS}/`))).toHaveLength(4);
    for (const [key, pod] of j) {
      const decoded = p.get(key)!;
      expect(podState(decoded), key).toEqual(podState(pod));
      // Times: Dates from protobuf (the models' type), RFC 3339 strings in JSON; the same instants.
      expect(instants(decoded.metadata), key).toEqual(instants(pod.metadata));
      expect(decoded.spec, key).toEqual(pod.spec);
    }
    expect(podState(p.get(`${NS}/p-crashloopbackoff`)!).problem?.reason).toBe('CrashLoopBackOff');
    expect(proto.metadata?.resourceVersion).toMatch(/^\d+$/);
    // The entries the pod tracker is filled with, read straight from the bytes: the same as from JSON.
    const entries = await listProtoPaged(client, '/api/v1/pods', {}, decodePodEntry, (pod: V1Pod) => podEntry(slimPod(pod)), {
      watchCache: true,
    });
    const fromJson = new Map(json.items.map((pod) => [pod.metadata?.uid, podEntry(pod)]));
    expect(entries.items).toHaveLength(fromJson.size);
    for (const e of entries.items) expect(e, e.key).toEqual(fromJson.get(e.key));
  });

  it('pages through continue tokens (a consistent read, 2 pods a page)', async () => {
    const json = await listJsonPaged(client, `/api/v1/namespaces/${NS}/pods`, {}, slimPod, 2);
    const proto = await listProtoPaged(client, `/api/v1/namespaces/${NS}/pods`, {}, decodeSlimPod, slimPod, { pageSize: 2 });
    expect(proto.items.map((x) => x.metadata?.name)).toEqual(json.items.map((x) => x.metadata?.name));
    expect(proto.items).toHaveLength(4);
  });

  it('a custom resource, which the server has only in JSON, is read from its JSON answer', async () => {
    // The sandbox simulates OpenEBS: every node has an LVMNode (local.openebs.io/v1alpha1).
    const path = '/apis/local.openebs.io/v1alpha1/lvmnodes';
    const list = await listProtoPaged<{ metadata?: { name?: string } }, string>(
      client,
      path,
      {},
      () => 'proto',
      (item) => `json:${item.metadata?.name}`,
    );
    const plain = await client.get<{ items: { metadata: { name: string } }[] }>(path);
    expect(list.items.length).toBeGreaterThan(0);
    expect(list.items.sort()).toEqual(plain.items.map((i) => `json:${i.metadata.name}`).sort());
  });
});

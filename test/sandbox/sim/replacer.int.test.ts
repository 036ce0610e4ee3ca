import {
  AppsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Lease,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ZONE_LABEL } from '../../../src/kube/nodes/nodes.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { REPLACE_SETTLE_MS, REPLACE_WHEN_DRAINED_ANNOTATION } from '../../../src/sandbox/sim/index.js';
import { podKeepsNode, replacementName } from '../../../src/sandbox/sim/replacer.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-2';
const PAUSE = 'registry.k8s.io/pause:3.9';
const HOSTNAME = 'kubernetes.io/hostname';
const NS = `replace-${Math.random().toString(36).slice(2, 7)}`;
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

let kc: KubeConfig;
let core: CoreV1Api;
/** The node this file annotated and cordoned; put back as it was if the test did not replace it. */
let picked: string | undefined;

const isReady = (n: V1Node) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

async function podsOn(node: string): Promise<V1Pod[]> {
  return (await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items;
}

/** Waits (list + watch) until the cluster's Nodes satisfy `check`; returns them. */
async function nodesWhen(what: string, check: (nodes: V1Node[]) => boolean, timeoutMs = 90_000): Promise<V1Node[]> {
  let seen: V1Node[] = [];
  await waitFor<V1Node>({
    kc,
    path: '/api/v1/nodes',
    timeoutMs,
    check: (items) => {
      seen = items;
      return {
        done: check(items),
        detail: `${what}: ${items.map((n) => `${n.metadata?.name}${n.spec?.unschedulable ? '(cordoned)' : ''}`).join(' ')}`,
      };
    },
  });
  return seen;
}

beforeAll(async () => {
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api, 30_000);
  await createNamespace(core, NS);
});

afterAll(async () => {
  if (picked) {
    // Not replaced (the test failed): undo the annotation and the cordon.
    await core
      .patchNode(
        { name: picked, body: { metadata: { annotations: { [REPLACE_WHEN_DRAINED_ANNOTATION]: null } }, spec: { unschedulable: null } } },
        mergePatch(),
      )
      .catch((err: unknown) => {
        if (statusCode(err) !== 404) throw err;
      });
  }
  await core.deleteNamespace({ name: NS }).catch(() => {});
  // The old node's DaemonSet pod has no kubelet left to finish its deletion (the pod garbage
  // collector would, in a minute): force it, as an operator would.
  for (const p of (await core.listNamespacedPod({ namespace: NS })).items) {
    await core
      .deleteNamespacedPod({ name: p.metadata!.name!, namespace: NS, gracePeriodSeconds: 0, body: { gracePeriodSeconds: 0 } })
      .catch(() => {});
  }
  await waitFor<V1Pod>({
    kc,
    path: '/api/v1/pods',
    timeoutMs: 120_000,
    check: (items) => {
      const left = items.filter((p) => p.metadata?.namespace === NS).length;
      return { done: left === 0, detail: `${left} pods of this file left` };
    },
  });
});

describe('sandbox node replacement (immutable infrastructure)', () => {
  it('replaces an annotated node once it is cordoned and drained: the old Node goes, a new one joins in its zone', async () => {
    const before = await nodesWhen(
      '6 Ready schedulable nodes',
      (ns) => ns.length === 6 && ns.every((n) => isReady(n) && !n.spec?.unschedulable),
    );
    const names = new Set(before.map((n) => n.metadata!.name!));

    // A worker whose pods other files left there are all managed (they go elsewhere when deleted): fewest first.
    const workers = before.filter((n) => n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined);
    const candidates: { node: V1Node; pods: V1Pod[] }[] = [];
    for (const node of workers) {
      const pods = (await podsOn(node.metadata!.name!)).filter(podKeepsNode);
      if (pods.every((p) => (p.metadata?.ownerReferences ?? []).some((o) => o.controller))) candidates.push({ node, pods });
    }
    candidates.sort((a, b) => a.pods.length - b.pods.length || a.node.metadata!.name!.localeCompare(b.node.metadata!.name!));
    expect(candidates.length).toBeGreaterThan(0);
    const old = candidates[0]!.node;
    const oldName = old.metadata!.name!;
    const oldUid = old.metadata!.uid!;
    const zone = old.metadata!.labels![ZONE_LABEL]!;
    expect(zone).toMatch(/^zone-[abc]$/);

    // On it: a DaemonSet pod (never blocks a replacement) and a bare pod (blocks it until deleted).
    await makeClient(kc, AppsV1Api, 30_000).createNamespacedDaemonSet({
      namespace: NS,
      body: {
        metadata: { name: 'agent' },
        spec: {
          selector: { matchLabels: { app: 'agent' } },
          template: {
            metadata: { labels: { app: 'agent' } },
            spec: { containers: [{ name: 'agent', image: PAUSE }], terminationGracePeriodSeconds: 1 },
          },
        },
      },
    });
    await core.createNamespacedPod({
      namespace: NS,
      body: {
        metadata: { name: 'bare' },
        spec: { nodeName: oldName, containers: [{ name: 'app', image: PAUSE }], terminationGracePeriodSeconds: 1 },
      },
    });
    await waitFor<V1Pod>({
      kc,
      path: `/api/v1/namespaces/${NS}/pods`,
      fieldSelector: `spec.nodeName=${oldName}`,
      timeoutMs: 60_000,
      check: (items) => {
        const running = items.filter((p) => p.status?.phase === 'Running').map((p) => (p.metadata?.name === 'bare' ? 'bare' : 'agent'));
        return { done: running.includes('bare') && running.includes('agent'), detail: running.join(',') };
      },
    });

    // Annotated and cordoned, with a pod left: the node stays (well past the settle time).
    picked = oldName;
    const cordonedAt = Date.now();
    await core.patchNode(
      { name: oldName, body: { metadata: { annotations: { [REPLACE_WHEN_DRAINED_ANNOTATION]: 'true' } }, spec: { unschedulable: true } } },
      mergePatch(),
    );
    // Its kubelet renews the node's Lease every 10 s: wait for a renewal well past the settle time
    // (the replacer had its chance meanwhile).
    await waitFor<V1Lease>({
      kc,
      path: `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases`,
      fieldSelector: `metadata.name=${oldName}`,
      timeoutMs: 90_000,
      check: (items) => {
        const renewed = items[0]?.spec?.renewTime;
        return {
          done: renewed !== undefined && new Date(renewed).getTime() >= cordonedAt + REPLACE_SETTLE_MS + 3_000,
          detail: `lease of ${oldName} renewed at ${renewed === undefined ? 'never' : new Date(renewed).toISOString()}`,
        };
      },
    });
    expect((await core.readNode({ name: oldName })).metadata?.uid).toBe(oldUid);

    // Drained: the bare pod and whatever else of other files runs there (managed: rescheduled elsewhere).
    for (const p of (await podsOn(oldName)).filter(podKeepsNode)) {
      await core.deleteNamespacedPod({ name: p.metadata!.name!, namespace: p.metadata!.namespace! }).catch((err: unknown) => {
        if (statusCode(err) !== 404) throw err;
      });
    }

    // Replaced: the old Node is gone and a new Ready node joined in the same zone.
    const after = await nodesWhen('old node gone, replacement Ready', (ns) => {
      const oldGone = !ns.some((n) => n.metadata?.uid === oldUid);
      const fresh = ns.filter((n) => !names.has(n.metadata?.name ?? '') && isReady(n));
      return oldGone && fresh.length === 1;
    });
    picked = undefined;
    const fresh = after.find((n) => !names.has(n.metadata?.name ?? ''))!;
    const freshName = fresh.metadata!.name!;
    expect(freshName).toMatch(new RegExp(`^${oldName.replace(/-r\d+$/, '')}-r\\d+$`));
    // The next generation of its name that no node had (`…-node-3` → `…-node-3-r1`).
    expect(freshName).toBe(replacementName(oldName, (n) => names.has(n)));
    expect(after.some((n) => n.metadata?.name === oldName)).toBe(false);
    expect(fresh.metadata?.labels?.[ZONE_LABEL]).toBe(zone);
    expect(fresh.metadata?.labels?.[HOSTNAME]).toBe(freshName);
    const { [HOSTNAME]: _oldHost, ...oldLabels } = old.metadata!.labels!;
    const { [HOSTNAME]: _newHost, ...newLabels } = fresh.metadata!.labels!;
    expect(newLabels).toMatchObject(oldLabels);
    expect(fresh.metadata?.annotations?.[REPLACE_WHEN_DRAINED_ANNOTATION]).toBe('true');
    expect(fresh.spec?.unschedulable).not.toBe(true);

    // The cluster as the other files expect it: 6 Ready, schedulable nodes (taints cleared).
    const final = await nodesWhen(
      '6 Ready schedulable nodes',
      (ns) =>
        ns.length === 6 &&
        ns.every(
          (n) => isReady(n) && !n.spec?.unschedulable && !(n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/not-ready'),
        ),
    );
    expect(final.map((n) => n.metadata!.name).sort()).toEqual([...[...names].filter((n) => n !== oldName), freshName].sort());
  });
});

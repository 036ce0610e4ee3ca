import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import {
  NAVARCHOS_API_VERSION,
  NAVARCHOS_GROUP,
  NAVARCHOS_VERSION,
  type NavarchosState,
  type NodeReplacementObject,
  type NodeRolloutObject,
} from '../../../src/kube/navarchos/objects.js';
import { createNodeRollout } from '../../../src/kube/navarchos/create.js';
import { watchNavarchos } from '../../../src/kube/navarchos/watch.js';
import { deleteNavarchosCrds, installNavarchosCrds } from '../../helpers/sandbox/navarchos.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-cp';
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const ROLLOUTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'noderollouts' };
const REPLACEMENTS = { group: NAVARCHOS_GROUP, version: NAVARCHOS_VERSION, plural: 'nodereplacements' };

let kc: KubeConfig;
let custom: CustomObjectsApi;
const abort = new AbortController();
let watching: Promise<void> | undefined;

/** Every state watchNavarchos reported, and the waits for one that satisfies a condition. */
const states: NavarchosState[] = [];
const waiters = new Set<{ ok: (s: NavarchosState) => boolean; resolve: (s: NavarchosState) => void }>();

function onChange(s: NavarchosState): void {
  states.push(s);
  for (const w of waiters) {
    if (w.ok(s)) {
      waiters.delete(w);
      w.resolve(s);
    }
  }
}

/** Resolves with the first reported state (the latest included) for which `ok` holds. */
function until(what: string, ok: (s: NavarchosState) => boolean, timeoutMs = 60_000): Promise<NavarchosState> {
  const latest = states.at(-1);
  if (latest && ok(latest)) return Promise.resolve(latest);
  return new Promise((resolve, reject) => {
    const w = {
      ok,
      resolve: (s: NavarchosState) => {
        clearTimeout(timer);
        resolve(s);
      },
    };
    const timer = setTimeout(() => {
      waiters.delete(w);
      reject(new Error(`${what}: not within ${timeoutMs} ms; last state: ${JSON.stringify(states.at(-1))}`));
    }, timeoutMs);
    waiters.add(w);
  });
}

beforeAll(async () => {
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  custom = makeClient(kc, CustomObjectsApi, 30_000);
  await deleteNavarchosCrds(kc); // a previous run's, if any
});

afterAll(async () => {
  abort.abort();
  await watching;
  await deleteNavarchosCrds(kc);
});

describe('observing Návarchos', () => {
  it('sees the CRDs appear, a NodeRollout created, its NodeReplacement progress live, and the CRDs go', async () => {
    watching = watchNavarchos(kc, onChange, abort.signal);
    const absent = await until('not installed', (s) => s.synced && !s.installed);
    expect(absent.rollouts).toEqual([]);

    // The CRDs appear: seen through the CRD watch, no restart needed.
    await installNavarchosCrds(kc);
    const empty = await until('installed and listed', (s) => s.installed && s.synced);
    expect(empty).toMatchObject({ rollouts: [], replacements: [] });

    // A NodeRollout as the TUI creates it: the server names it rollout-xxxxx.
    const nodes = (await makeClient(kc, CoreV1Api, 30_000).listNode()).items;
    const worker = nodes.find((n) => n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined)!;
    const node = worker.metadata!.name!;
    const created = await createNodeRollout(kc, {
      nodeNames: [{ name: node, priority: 40 }],
      nodeSelectors: [
        { selector: 'node-role.kubernetes.io/master', priority: 20 },
        { matchLabels: { 'node-role.kubernetes.io/worker': '' }, priority: 10 },
      ],
    });
    expect(created.name).toMatch(/^rollout-[a-z0-9]{5}$/);
    const stored = (await custom.getClusterCustomObject({ ...ROLLOUTS, name: created.name })) as NodeRolloutObject;
    expect(stored.metadata?.generateName).toBe('rollout-');
    expect(stored.spec?.nodeNames).toEqual([{ name: node, replacement: { priority: 40 } }]);

    let s = await until('the new rollout', (x) => x.rollouts.some((r) => r.name === created.name));
    expect(s.rollouts).toEqual([
      {
        name: created.name,
        phase: 'New',
        targets: [
          { kind: 'node', target: node, priority: 40 },
          { kind: 'selector', target: 'node-role.kubernetes.io/master', priority: 20 },
          { kind: 'selector', target: 'node-role.kubernetes.io/worker=', priority: 10 },
        ],
        priorities: [40, 20, 10],
        replacementsCreated: 0,
        replacementsCompleted: 0,
        createdAt: expect.any(String),
      },
    ]);

    // Playing the controller: a NodeReplacement for the node (owned by the rollout and the Node), then statuses.
    const nr = (await custom.createClusterCustomObject({
      ...REPLACEMENTS,
      body: {
        apiVersion: NAVARCHOS_API_VERSION,
        kind: 'NodeReplacement',
        metadata: {
          generateName: `${node}-`,
          ownerReferences: [
            {
              apiVersion: NAVARCHOS_API_VERSION,
              kind: 'NodeRollout',
              name: created.name,
              uid: stored.metadata!.uid!,
              controller: true,
              blockOwnerDeletion: true,
            },
            { apiVersion: 'v1', kind: 'Node', name: node, uid: worker.metadata!.uid!, controller: false, blockOwnerDeletion: false },
          ],
        },
        spec: { replacement: { priority: 40 }, nodeName: node, nodeUID: worker.metadata!.uid },
      },
    })) as NodeReplacementObject;
    const nrName = nr.metadata!.name!;
    s = await until('the replacement', (x) => x.replacements.some((r) => r.name === nrName));
    expect(s.replacements).toEqual([
      {
        name: nrName,
        nodeName: node,
        priority: 40,
        phase: 'New',
        rollout: created.name,
        nodePods: 0,
        evictedPods: 0,
        ignoredPods: 0,
        failedPods: 0,
        failed: [],
        createdAt: expect.any(String),
      },
    ]);

    const patch = (what: typeof ROLLOUTS, name: string, body: object) =>
      custom.patchClusterCustomObject({ ...what, name, body }, mergePatch());
    await patch(ROLLOUTS, created.name, { status: { phase: 'InProgress', replacementsCreated: [node], replacementsCreatedCount: 1 } });
    s = await until('rollout in progress', (x) => x.rollouts[0]?.phase === 'InProgress');
    expect(s.rollouts[0]).toMatchObject({ replacementsCreated: 1, replacementsCompleted: 0 });
    expect(s.rollouts[0]!.completionTimestamp).toBeUndefined();

    // Draining, one pod held by a PodDisruptionBudget (the reason as Návarchos records it).
    const pdbReason = 'Cannot evict pod as it would violate the pod’s disruption budget.';
    await patch(REPLACEMENTS, nrName, {
      status: {
        phase: 'InProgress',
        nodePods: ['default/web-1', 'default/web-2', 'default/web-3', 'kube-system/agent-x'],
        nodePodsCount: 4,
        evictedPods: ['default/web-1'],
        evictedPodsCount: 1,
        ignoredPods: [{ name: 'kube-system/agent-x', reason: 'pod owned by a DaemonSet' }],
        ignoredPodsCount: 1,
        failedPods: [{ name: 'default/web-2', reason: pdbReason }],
        failedPodsCount: 1,
      },
    });
    s = await until('replacement draining', (x) => x.replacements[0]?.phase === 'InProgress');
    expect(s.replacements[0]).toMatchObject({
      nodePods: 4,
      evictedPods: 1,
      ignoredPods: 1,
      failedPods: 1,
      failed: [{ name: 'default/web-2', reason: pdbReason }],
    });
    expect(s.replacements[0]!.completionTimestamp).toBeUndefined();

    // Done: the budget let go, every pod evicted; completion timestamps on both.
    const doneAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    await patch(REPLACEMENTS, nrName, {
      status: {
        phase: 'Completed',
        evictedPods: ['default/web-1', 'default/web-2', 'default/web-3'],
        evictedPodsCount: 3,
        failedPods: [],
        failedPodsCount: null,
        completionTimestamp: doneAt,
      },
    });
    await patch(ROLLOUTS, created.name, {
      status: { phase: 'Completed', replacementsCompleted: [node], replacementsCompletedCount: 1, completionTimestamp: doneAt },
    });
    s = await until('both completed', (x) => x.replacements[0]?.phase === 'Completed' && x.rollouts[0]?.phase === 'Completed');
    expect(s.replacements[0]).toMatchObject({ evictedPods: 3, failedPods: 0, failed: [], completionTimestamp: doneAt });
    expect(s.rollouts[0]).toMatchObject({ replacementsCreated: 1, replacementsCompleted: 1, completionTimestamp: doneAt });
    expect(s.error).toBeUndefined();

    // The CRDs go: not installed, nothing listed; the watch keeps running for their return.
    await deleteNavarchosCrds(kc);
    s = await until('uninstalled', (x) => !x.installed);
    expect(s).toMatchObject({ rollouts: [], replacements: [] });
  });
});

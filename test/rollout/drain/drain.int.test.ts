import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { cordon, uncordon } from '../../../src/kube/nodes/nodes.js';
import { dryRunDrain } from '../../../src/rollout/drain/dry-run.js';
import { DrainError } from '../../../src/rollout/drain/errors.js';
import type { DrainProgress } from '../../../src/rollout/drain/tracker.js';
import {
  HOSTNAME,
  NS,
  apps,
  cleanNodes,
  core,
  daemonSet,
  deployment,
  drain,
  exists,
  kc,
  mergePatch,
  objects,
  onlyOn,
  running,
  schedulableNodes,
  setUpDrainCluster,
  touched,
  unmanagedPod,
} from './drain-cluster.js';

setUpDrainCluster('app', 'flags', 'pdb');

describe('drainNode on a real API server (policy/v1beta1 evictions)', () => {
  it('cordon and uncordon are idempotent and say whether they changed the node', async () => {
    const [node] = await schedulableNodes();
    touched.add(node!);
    expect(await cordon(kc, node!)).toBe(true);
    expect(await cordon(kc, node!)).toBe(false);
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBe(true);
    expect(await uncordon(kc, node!)).toBe(true);
    expect(await uncordon(kc, node!)).toBe(false);
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBeFalsy();
  });

  it("evicts a Deployment's pods, which are rescheduled on other nodes, and leaves the DaemonSet's pod alone", async () => {
    const clean = await cleanNodes();
    await daemonSet(NS.app, 'agent');
    await deployment(NS.app, 'web', 4, onlyOn(clean));
    const nodes = await schedulableNodes();
    const agents = await running(NS.app, 'app=agent', nodes.length);
    const web = await running(NS.app, 'app=web', 4);
    const node = web[0]!.spec!.nodeName!;
    const onNode = web.filter((p) => p.spec?.nodeName === node);
    const agent = agents.find((p) => p.spec?.nodeName === node)!;
    expect(onNode.length).toBeGreaterThan(0);

    const seen: DrainProgress[] = [];
    const result = await drain(node, {}, seen);

    expect(result.cordoned).toBe(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);
    const mine = result.pods.filter((c) => c.namespace === NS.app);
    expect(
      mine
        .filter((c) => c.action === 'evict')
        .map((c) => c.uid)
        .sort(),
    ).toEqual(onNode.map((p) => p.metadata!.uid!).sort());
    expect(mine.find((c) => c.uid === agent.metadata!.uid)?.action).toBe('ignored-daemonset');
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ node, remaining: 0, failed: 0 });
    expect(last.evicted).toBeGreaterThanOrEqual(onNode.length);
    expect(last.ignored).toBeGreaterThanOrEqual(1);
    expect(last.total).toBe(last.evicted + last.ignored + last.deleted + last.failed + last.remaining);
    // Progress after every change: the evicted count grows one pod at a time.
    expect(seen.map((p) => p.evicted)).toEqual([...seen.map((p) => p.evicted)].sort((a, b) => a - b));

    // Evicted pods are gone; the Deployment runs 4 pods again, none on the drained node.
    for (const p of onNode) expect(await exists(NS.app, p.metadata!.name!, p.metadata!.uid)).toBe(false);
    const after = await running(NS.app, 'app=web', 4);
    expect(after.every((p) => p.spec?.nodeName !== node)).toBe(true);
    // The DaemonSet's pod is still the same pod.
    expect(await exists(NS.app, agent.metadata!.name!, agent.metadata!.uid)).toBe(true);

    expect(await uncordon(kc, node)).toBe(true);
  });

  it('refuses emptyDir and unmanaged pods without the flags (evicting nothing), and evicts or deletes them with the flags', async () => {
    const node = (await cleanNodes()).at(-1)!;
    await deployment(NS.flags, 'cache', 1, { nodeSelector: { [HOSTNAME]: node }, volumes: [{ name: 'scratch', emptyDir: {} }] });
    await unmanagedPod(NS.flags, 'lonely', node);
    // A finished pod: the test reports Succeeded for it, as a kubelet would.
    await unmanagedPod(NS.flags, 'done', node);
    const [cache] = await running(NS.flags, 'app=cache', 1);
    const [lonely] = await running(NS.flags, 'app=lonely', 1);
    const done = (await running(NS.flags, 'app=done', 1))[0]!;
    await core.patchNamespacedPodStatus({ namespace: NS.flags, name: 'done', body: { status: { phase: 'Succeeded' } } }, mergePatch());

    const refused = await drain(node).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(DrainError);
    const e = refused as DrainError;
    expect(e.kind).toBe('refused');
    expect(e.message).toContain(`--force for ${NS.flags}/lonely`);
    expect(e.message).toContain(`--delete-emptydir-data for ${NS.flags}/${cache!.metadata!.name}`);
    expect(e.pods.map((p) => `${p.namespace}/${p.name}`).sort()).toEqual(
      [`${NS.flags}/${cache!.metadata!.name}`, `${NS.flags}/lonely`].sort(),
    );
    // Nothing was evicted or deleted.
    expect(await exists(NS.flags, 'lonely', lonely!.metadata!.uid)).toBe(true);
    expect(await exists(NS.flags, cache!.metadata!.name!, cache!.metadata!.uid)).toBe(true);
    expect(await exists(NS.flags, 'done', done.metadata!.uid)).toBe(true);
    // As kubectl, the refused drain leaves the node cordoned.
    expect(e.cordoned).toBe(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);

    const seen: DrainProgress[] = [];
    const result = await drain(node, { force: true, deleteEmptyDirData: true }, seen);
    expect(result.cordoned).toBe(false); // cordoned already
    const action = (name: string) => result.pods.find((c) => c.namespace === NS.flags && c.name === name)?.action;
    expect(action('lonely')).toBe('evict');
    expect(action(cache!.metadata!.name!)).toBe('evict');
    expect(action('done')).toBe('delete');
    expect(seen.at(-1)).toMatchObject({ remaining: 0, failed: 0 });
    expect(seen.at(-1)!.deleted).toBeGreaterThanOrEqual(1);
    expect(await exists(NS.flags, 'lonely')).toBe(false);
    expect(await exists(NS.flags, 'done')).toBe(false);
    expect(await exists(NS.flags, cache!.metadata!.name!, cache!.metadata!.uid)).toBe(false);

    await apps.deleteNamespacedDeployment({ namespace: NS.flags, name: 'cache' });
    expect(await uncordon(kc, node)).toBe(true);
  });

  it('a PDB with minAvailable = replicas blocks the drain and the progress names it; scaling the Deployment up releases it', async () => {
    await deployment(NS.pdb, 'guarded', 2, onlyOn(await cleanNodes()));
    await objects.create({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded-pdb', namespace: NS.pdb },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'guarded' } } },
    } as KubernetesObject);
    const pods = await running(NS.pdb, 'app=guarded', 2);
    const node = pods[0]!.spec!.nodeName!;
    const onNode = pods.filter((p) => p.spec?.nodeName === node);
    // The disruption controller has counted the healthy pods: 0 disruptions allowed.
    await waitFor<KubernetesObject & { status?: { currentHealthy?: number; disruptionsAllowed?: number } }>({
      kc,
      path: `/apis/policy/v1beta1/namespaces/${NS.pdb}/poddisruptionbudgets`,
      timeoutMs: 60_000,
      check: (items) => {
        const s = items[0]?.status;
        return { done: s?.currentHealthy === 2 && s.disruptionsAllowed === 0, detail: JSON.stringify(s ?? {}) };
      },
    });

    // The dry run sees the block before anything happens.
    const dry = await dryRunDrain(kc, [node], { force: false, deleteEmptyDirData: false });
    const blocked = dry.nodes[0]!.pods.filter((c) => c.namespace === NS.pdb);
    expect(blocked.map((c) => c.action)).toEqual(onNode.map(() => 'blocked-pdb'));
    expect(blocked[0]!.pdb).toEqual({ namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 });

    const isBlocked = (p: DrainProgress) => p.blockingPdb?.name === 'guarded-pdb';

    // A short per-node timeout: the error says what is left and what blocks it.
    const timedOut = await drain(node, { timeoutMs: 3_000 }).then(
      () => undefined,
      (err: unknown) => err as DrainError,
    );
    expect(timedOut).toBeInstanceOf(DrainError);
    expect(timedOut!.kind).toBe('timeout');
    expect(timedOut!.message).toContain(onNode[0]!.metadata!.name!);
    expect(timedOut!.message).toContain(`${NS.pdb}/guarded-pdb (0 disruptions allowed)`);
    expect(timedOut!.pods.map((p) => p.name).sort()).toEqual(onNode.map((p) => p.metadata!.name).sort());

    // Aborting while blocked: the drain stops with the signal's reason.
    const abort = new AbortController();
    const abortSeen: DrainProgress[] = [];
    const aborted = drain(node, {}, abortSeen, (p) => isBlocked(p) && abort.abort(new Error('operator aborted')), abort.signal);
    await expect(aborted).rejects.toThrow('operator aborted');
    expect(abortSeen.some(isBlocked)).toBe(true);

    // The real drain: blocked until the Deployment is scaled up.
    const seen: DrainProgress[] = [];
    let reportBlocked: (p: DrainProgress) => void = () => {};
    const blockedOnce = new Promise<DrainProgress>((resolve) => (reportBlocked = resolve));
    const run = drain(node, {}, seen, (p) => isBlocked(p) && reportBlocked(p));
    const blockedReport = await Promise.race([blockedOnce, run.then(() => undefined)]);
    expect(blockedReport?.blockingPdb).toEqual({ namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 });
    expect(blockedReport?.remaining).toBe(onNode.length);
    await apps.patchNamespacedDeployment({ namespace: NS.pdb, name: 'guarded', body: { spec: { replicas: 3 } } }, mergePatch());

    const result = await run;
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ remaining: 0, failed: 0 });
    expect(last.blockingPdb).toBeUndefined();
    expect(result.pods.filter((c) => c.namespace === NS.pdb && c.action === 'evict').length).toBe(onNode.length);
    for (const p of onNode) expect(await exists(NS.pdb, p.metadata!.name!, p.metadata!.uid)).toBe(false);
    expect((await running(NS.pdb, 'app=guarded', 3)).every((p) => p.spec?.nodeName !== node)).toBe(true);

    expect(await uncordon(kc, node)).toBe(true);
    // No budget of this file may hold up the drains that follow.
    await objects.delete({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded-pdb', namespace: NS.pdb },
    } as KubernetesObject);
  });
});

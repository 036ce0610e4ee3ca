/**
 * The rollout workflow on a sandbox cluster: a drain blocked by a PodDisruptionBudget (driven
 * in-process to watch its states), and a drain refused for an unmanaged pod.
 */
import os from 'node:os';
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { resolvePlan, initialState } from '../../../src/rollout/plan.js';
import { abortRollout } from '../../../src/rollout/runner/abort.js';
import { runRollout } from '../../../src/rollout/runner/run.js';
import { listObjectEvents } from '../../../src/kube/events/event-recorder.js';
import { createRollout, readRollout, watchRollouts } from '../../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE, type RolloutState } from '../../../src/rollout/types.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import {
  CONTEXT,
  FAST,
  NS,
  cli,
  core,
  deployment,
  kc,
  lease,
  objects,
  onlyOn,
  pdb,
  planNodes,
  podSpec,
  rolloutName,
  rollouts,
  running,
  scale,
  schedulable,
  spec,
  startCli,
  touched,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('pdb', 'refuse');

describe('fleetdeck rollout on a sandbox cluster', () => {
  it('a PDB with minAvailable = replicas blocks the drain and the state names it; scaling up releases it', async () => {
    await deployment(NS.pdb, 'guarded', 2, onlyOn((await schedulable()).slice(0, 5)));
    const pods = await running(NS.pdb, 'guarded', 2);
    await pdb(NS.pdb, 'guarded-pdb', 'guarded', 2);
    const node = pods[0]!.spec!.nodeName!;
    touched.add(node);
    const name = rolloutName('pdb');
    rollouts.add(name);
    const s = spec(name, { nodeNames: [{ name: node, priority: 0 }] });
    const created = await createRollout(kc, initialState(s, resolvePlan(await planNodes(), s)));
    const startedAt = Date.now();

    // A second fleetdeck's view: the ConfigMap watch, and `fleetdeck rollout watch` in another process.
    const seenElsewhere: RolloutState[] = [];
    const viewer = watchRollouts(kc, { onState: (x) => seenElsewhere.push(x) }, name);
    const watcher = startCli(['rollout', 'watch', name, '--context', CONTEXT]);
    const states: RolloutState[] = [];
    const run = runRollout(kc, created.state, {}, (x) => states.push(x));
    try {
      // While it runs, its Lease names this process.
      const held = await eventually('the Lease is held', async () => (await lease(name))?.holderIdentity, 30_000);
      expect(held).toBe(`${os.hostname()}/${process.pid}`);
      const blocked = await eventually(
        'the ConfigMap names the blocking PDB',
        () => seenElsewhere.find((x) => x.nodes[0]?.blockingPdb?.name === 'guarded-pdb'),
        60_000,
      );
      expect(blocked.phase).toBe('Running');
      expect(blocked.nodes[0]).toMatchObject({
        name: node,
        phase: 'draining',
        cordonedByUs: true,
        blockingPdb: { namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 },
      });
      expect(
        blocked.log.some((l) =>
          l.message.includes(`eviction blocked by PodDisruptionBudget ${NS.pdb}/guarded-pdb (0 disruptions allowed)`),
        ),
      ).toBe(true);
      expect(await unschedulable(node)).toBe(true);
      // The other process is watching (it may start slowly on a busy machine) before the budget lets go.
      await eventually('rollout watch prints the drain', () => watcher.out().includes(`${node} (priority 0): draining`), 60_000);
      await scale(NS.pdb, 'guarded', 3);
      const final = await run;
      expect(final.phase).toBe('Completed');
      expect(final.nodes[0]!.blockingPdb).toBeUndefined();
      expect(final.nodes[0]!.evicted).toBeGreaterThanOrEqual(1);
      // The local progress went through every phase in order, the block included.
      const phases = [...new Set(states.map((x) => x.nodes[0]!.phase))];
      expect(phases).toEqual(['waiting', 'cordoned', 'draining', 'replacing', 'validating', 'done']);
      expect(states.some((x) => x.nodes[0]!.blockingPdb?.name === 'guarded-pdb')).toBe(true);
      expect(await unschedulable(node)).toBe(false);
      // The other process printed the same progress, live, and ended with the rollout.
      const watched = await watcher.done;
      expect(watched.code, watched.stderr).toBe(0);
      // (Which counts it saw depends on when it read: the drain's first state may come and go in between.)
      expect(watched.stdout).toContain(`${node} (priority 0): draining`);
      expect(watched.stdout).toContain(`blocked by PodDisruptionBudget ${NS.pdb}/guarded-pdb (0 disruptions allowed)`);
      expect(watched.stdout).toContain(`Rollout ${name} completed: 1/1 nodes done.`);

      // What `kubectl describe node` shows: fleetdeck's Events on the node, in order, the PDB's refusal aggregated.
      const nodeUid = (await core.readNode({ name: node })).metadata!.uid!;
      const onNode = (await listObjectEvents(kc, 'default', node, 'Node')).filter(
        (e) => e.reportingComponent === 'fleetdeck' && (e.lastTimestamp?.getTime() ?? 0) >= startedAt - 2_000,
      );
      const reasons = onNode.map((e) => e.reason);
      for (const r of ['NodeCordoned', 'DrainStarted', 'DrainBlocked', 'Drained', 'NodeUncordoned', 'HealthGatePassed'])
        expect(reasons).toContain(r);
      const blockedEvents = onNode.filter((e) => e.reason === 'DrainBlocked');
      expect(blockedEvents[0]).toMatchObject({
        type: 'Warning',
        involvedObject: { kind: 'Node', name: node, uid: nodeUid },
        source: { component: 'fleetdeck' },
        reportingInstance: `${os.hostname()}/${process.pid}`,
      });
      expect(blockedEvents[0]!.message).toMatch(
        new RegExp(
          `^Eviction of pod ${NS.pdb}/guarded-[\\w-]+ refused by PodDisruptionBudget ${NS.pdb}/guarded-pdb \\(0 disruptions allowed\\); retrying$`,
        ),
      );
      // One Event per blocked pod, however many retries (they are its count).
      expect(new Set(blockedEvents.map((e) => e.message)).size).toBe(blockedEvents.length);
      expect(onNode.find((e) => e.reason === 'NodeCordoned')?.type).toBe('Normal');
      // And on the record.
      const onRecord = (await listObjectEvents(kc, ROLLOUT_NAMESPACE, configMapName(name), 'ConfigMap')).map((e) => e.reason);
      expect(onRecord).toEqual(expect.arrayContaining(['RolloutStarted', 'HealthGatePassed', 'RolloutCompleted']));
      // Given back.
      expect((await lease(name))?.holderIdentity).toBeUndefined();
    } finally {
      watcher.child.kill('SIGKILL');
      await viewer.stop();
      await objects
        .delete({
          apiVersion: 'policy/v1beta1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'guarded-pdb', namespace: NS.pdb },
        } as KubernetesObject)
        .catch(() => {});
    }
  });

  it('a drain refused for an unmanaged pod: create refuses before changing anything; a running rollout fails naming the flag', async () => {
    const node = (await schedulable()).at(-1)!;
    touched.add(node);
    await core.createNamespacedPod({
      namespace: NS.refuse,
      body: { metadata: { name: 'lonely', labels: { app: 'lonely' } }, spec: podSpec({ nodeName: node }) },
    });
    await running(NS.refuse, 'lonely', 1);

    const name = rolloutName('refuse');
    const refused = await runCli(cli(['rollout', 'create', '--context', CONTEXT, '--node', node, '--name', name, ...FAST]));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(new RegExp(`needs --force\\s+${NS.refuse}/lonely`));
    expect(refused.stdout).toContain(`nothing was changed: cannot drain node ${node}: needs --force for ${NS.refuse}/lonely`);
    expect(await readRollout(kc, name)).toBeUndefined();
    expect(await unschedulable(node)).toBe(false);

    // The pod arrived after the rollout was planned: the run fails on it, naming the flag.
    rollouts.add(name);
    const s = spec(name, { nodeNames: [{ name: node, priority: 0 }] });
    const created = await createRollout(kc, initialState(s, resolvePlan(await planNodes(), s)));
    const final = await runRollout(kc, created.state);
    expect(final.phase).toBe('Failed');
    expect(final.message).toContain(`needs --force for ${NS.refuse}/lonely`);
    expect(final.nodes[0]).toMatchObject({ phase: 'failed', cordonedByUs: true });
    expect(final.nodes[0]!.error).toContain('--force');
    // As kubectl, the refused node stays cordoned; abort gives it back.
    expect(await unschedulable(node)).toBe(true);
    const { state: aborted, uncordoned } = await abortRollout(kc, name);
    expect(aborted.phase).toBe('Aborted');
    expect(uncordoned).toEqual([node]);
    expect(await unschedulable(node)).toBe(false);
    // The pod is still there: nothing was evicted.
    expect((await core.readNamespacedPod({ namespace: NS.refuse, name: 'lonely' })).status?.phase).toBe('Running');
  });
});

/**
 * The rollout workflow on a sandbox cluster: the `wait` replacement (the sandbox replaces a drained node).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli/cli.js';
import {
  CONTEXT,
  FAST,
  NS,
  REPLACE_WHEN_DRAINED,
  cli,
  core,
  deployment,
  isReady,
  mergePatch,
  nodes,
  onlyOn,
  rolloutName,
  rollouts,
  running,
  schedulable,
  state,
  touched,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('wait');

describe('fleetdeck rollout on a sandbox cluster', () => {
  // ---------------------------------------------------------------------------------------------
  // NEEDS THE SANDBOX'S NODE REPLACEMENT (a Node annotated sandbox.fleetdeck.io/replace-when-drained:
  // "true" is deleted and replaced by a new node in the same zone once cordoned and drained). Until
  // the sandbox does that, this test fails: the old node is never deleted and the wait times out.
  it('replace wait: waits until the drained node is deleted and a new Ready node joins, and records it [needs sandbox node replacement]', async () => {
    const node = (await schedulable())[1]!;
    touched.add(node);
    const zone = (await core.readNode({ name: node })).metadata?.labels?.['topology.kubernetes.io/zone'];
    await core.patchNode({ name: node, body: { metadata: { annotations: { [REPLACE_WHEN_DRAINED]: 'true' } } } }, mergePatch());
    await deployment(NS.wait, 'web', 2, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.wait, 'web', 2);
    const name = rolloutName('wait');
    rollouts.add(name);
    const run = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '--node', node, '--name', name, '--replace', 'wait', ...FAST]),
      { timeoutMs: 170_000 },
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const s = await state(name);
    expect(s.phase).toBe('Completed');
    const replacement = s.nodes[0]!.replacement;
    expect(replacement).toBeDefined();
    expect(replacement).not.toBe(node);
    expect(run.stdout).toContain(`done (replaced by ${replacement})`);
    const after = await nodes();
    expect(after.some((n) => n.metadata?.name === node)).toBe(false);
    const fresh = after.find((n) => n.metadata?.name === replacement)!;
    expect(isReady(fresh)).toBe(true);
    expect(fresh.metadata?.labels?.['topology.kubernetes.io/zone']).toBe(zone);
    touched.add(replacement!);
  });
});

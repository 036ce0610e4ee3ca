/**
 * The rollout workflow on a sandbox cluster: `rollout abort` from another fleetdeck.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { readRollout } from '../../../src/rollout/state.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import {
  CONTEXT,
  FAST,
  HOSTNAME,
  NS,
  cli,
  core,
  deployment,
  kc,
  objects,
  pdb,
  rolloutName,
  rollouts,
  running,
  schedulable,
  setCordon,
  startCli,
  state,
  touched,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('abort');

describe('fleetdeck rollout on a sandbox cluster', () => {
  it('abort (from another fleetdeck) stops the owner and uncordons the nodes it cordoned and did not finish, only those, and says so', async () => {
    const [a, b, c, d] = (await schedulable()).slice(0, 4);
    for (const n of [a, b, c, d]) touched.add(n!);
    // One pod held by a PDB on each of a, b and d: their drains block.
    for (const [app, node] of [
      ['pa', a!],
      ['pb', b!],
      ['pd', d!],
    ] as const) {
      await deployment(NS.abort, app, 1, { nodeSelector: { [HOSTNAME]: node } });
      await running(NS.abort, app, 1);
      await pdb(NS.abort, `${app}-pdb`, app, 1);
    }
    // a was cordoned before the rollout: not the rollout's to uncordon.
    await setCordon(a!, true);
    const name = rolloutName('abort');
    rollouts.add(name);
    const owner = startCli([
      'rollout',
      'create',
      '--context',
      CONTEXT,
      '--node',
      a!,
      '--node',
      b!,
      '--node',
      d!,
      '--node',
      c!,
      '--priority',
      '-1',
      '--max-unavailable',
      '3',
      '--name',
      name,
      '--replace',
      'uncordon',
      ...FAST,
    ]);
    let seen = 'no record';
    await eventually(
      'three drains blocked',
      async () => {
        const s = await readRollout(kc, name);
        if (s) seen = JSON.stringify({ phase: s.state.phase, hold: s.state.hold, nodes: s.state.nodes, log: s.state.log.slice(-5) });
        return s && s.state.nodes.filter((n) => n.blockingPdb).length === 3;
      },
      60_000,
      250,
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; the rollout: ${seen}; its output: ${owner.out()}`);
    });
    const before = await state(name);
    expect(before.nodes.map((n) => [n.name, n.phase, n.cordonedByUs])).toEqual([
      [a, 'draining', false],
      [b, 'draining', true],
      [d, 'draining', true],
      [c, 'waiting', false],
    ]);
    // Meanwhile an operator uncordoned b by hand, and cordoned c, which the rollout had not reached.
    await setCordon(b!, false);
    await setCordon(c!, true);

    const abort = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']));
    expect(abort.code, abort.stderr + abort.stdout).toBe(0);
    const leftA = `${a} cordoned (it was cordoned before the rollout took it)`;
    const leftC = `${c} cordoned (cordoned by someone else; the rollout had not reached it)`;
    expect(abort.stdout.trim().split('\n').slice(-5)).toEqual([
      `Nodes to uncordon (cordoned by the rollout, not finished): ${d}`,
      `Already schedulable (cordoned by the rollout, uncordoned since): ${b}`,
      `Left cordoned: ${a} (it was cordoned before the rollout took it)`,
      `Left cordoned: ${c} (cordoned by someone else; the rollout had not reached it)`,
      `Rollout ${name} aborted; uncordoned ${d}; already schedulable: ${b}; left ${leftA}; left ${leftC}.`,
    ]);
    const ended = await owner.done;
    expect(ended.code).toBe(1);
    expect(ended.stdout).toContain(`Rollout ${name} aborted`);

    const s = await state(name);
    expect(s.phase).toBe('Aborted');
    expect(s.owner).toBeUndefined();
    expect(s.log.at(-1)?.message).toBe(`abort: uncordoned ${d}; already schedulable: ${b}; left ${leftA}; left ${leftC}`);
    expect(s.nodes.filter((n) => n.cordonedByUs)).toEqual([]);
    expect(await unschedulable(d!)).toBe(false);
    expect(await unschedulable(b!)).toBe(false);
    expect(await unschedulable(a!)).toBe(true); // not ours
    expect(await unschedulable(c!)).toBe(true); // not ours either

    // Aborting again uncordons nothing and says so (JSON: what it found, what it did).
    const again = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes', '-o', 'json']));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      kind: 'result',
      uncordoned: [],
      alreadySchedulable: [],
      gone: [],
      leftCordoned: [
        { node: a, reason: 'it was cordoned before the rollout took it' },
        { node: c, reason: 'cordoned by someone else; the rollout had not reached it' },
      ],
    });
    // Aborted is final.
    const resume = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('is Aborted: there is nothing to resume');

    await setCordon(a!, false);
    await setCordon(c!, false);
    for (const app of ['pa', 'pb', 'pd'])
      await objects.delete({
        apiVersion: 'policy/v1beta1',
        kind: 'PodDisruptionBudget',
        metadata: { name: `${app}-pdb`, namespace: NS.abort },
      } as KubernetesObject);
    await core.deleteNamespace({ name: NS.abort });
  });
});

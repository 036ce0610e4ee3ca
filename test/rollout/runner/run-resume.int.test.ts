/**
 * The rollout workflow on a sandbox cluster: a fleetdeck killed in mid-drain, and `rollout resume`.
 */
import os from 'node:os';
import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import {
  CONTEXT,
  FAST,
  HOSTNAME,
  NS,
  cli,
  deployment,
  lease,
  objects,
  onlyOn,
  pdb,
  rolloutName,
  rollouts,
  running,
  schedulable,
  startCli,
  state,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('kill');

describe('fleetdeck rollout on a sandbox cluster', () => {
  it('a fleetdeck killed (SIGKILL) in mid-drain leaves a state that `rollout resume` finishes', async () => {
    const [a, b] = (await schedulable()).slice(0, 2);
    // A blocked pod on the first node keeps its drain going until the test releases it.
    await deployment(NS.kill, 'held', 1, { nodeSelector: { [HOSTNAME]: a! } });
    await running(NS.kill, 'held', 1);
    await deployment(NS.kill, 'free', 2, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.kill, 'free', 2);
    await pdb(NS.kill, 'held-pdb', 'held', 1);
    const name = rolloutName('kill');
    rollouts.add(name);

    const first = startCli([
      'rollout',
      'create',
      '--context',
      CONTEXT,
      '--node',
      a!,
      '--priority',
      '2',
      '--node',
      b!,
      '--priority',
      '1',
      '--name',
      name,
      '--replace',
      'uncordon',
      ...FAST,
    ]);
    // A progress line: the drain has started, so its phase is in the ConfigMap.
    await eventually(
      'the CLI reports the first node draining',
      () => new RegExp(`${a} \\(priority 2\\): draining \\d+/\\d+ pods`).test(first.out()),
      60_000,
    );
    // While it runs, a second fleetdeck on this host lists its owner as live.
    const listOwner = async () => {
      const text = await runCli(cli(['rollout', 'list', '--context', CONTEXT]));
      const json = await runCli(cli(['rollout', 'list', '--context', CONTEXT, '-o', 'json']));
      const rows = (JSON.parse(json.stdout) as { rollouts: { name: string; owner: Record<string, unknown> | null }[] }).rollouts;
      return { line: text.stdout.split('\n').find((l) => l.startsWith(`${name} `)), owner: rows.find((r) => r.name === name)?.owner };
    };
    const pid = first.child.pid!;
    const holder = `${os.hostname()}/${pid}`;
    const alive = await listOwner();
    expect(alive.line).toContain(`${holder} live`);
    expect(alive.owner).toMatchObject({ holder, pid, host: os.hostname(), pod: null, live: true, state: 'live', detail: 'live' });
    // Held by a live runner: resume elsewhere is refused, naming the holder.
    const refused = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      new RegExp(
        `^fleetdeck: rollout ${name} is being run by ${holder} \\(lease renewed \\d+ s ago\\); watch it with fleetdeck rollout watch ${name} --context ${CONTEXT}, or take over with --force-takeover$`,
      ),
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // Killed: its Lease is still fresh, but the list calls it dead.
    const gone = await listOwner();
    expect(gone.line).toContain(`${holder} dead (pid ${pid} gone)`);
    expect(gone.owner).toMatchObject({ holder, pid, live: false, state: 'dead', detail: `dead (pid ${pid} gone)` });
    expect(await lease(name)).toMatchObject({ holderIdentity: holder, leaseTransitions: 0 });

    // What the killed fleetdeck left: Running, owned by a dead process, the node draining and cordoned.
    const left = await state(name);
    expect(left.phase).toBe('Running');
    expect(left.owner?.pid).toBe(first.child.pid);
    expect(left.nodes.map((n) => [n.name, n.phase])).toEqual([
      [a, 'draining'],
      [b, 'waiting'],
    ]);
    expect(await unschedulable(a!)).toBe(true);

    // Released: the resumed drain can go through. The dead holder's Lease is fresh, but its process is gone.
    await objects.delete({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'held-pdb', namespace: NS.kill },
    } as KubernetesObject);
    const resumed = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain(`Resuming rollout ${name} on ${CONTEXT}: Running, 0/2 nodes done`);
    expect(resumed.stdout).toContain(`Rollout ${name} completed: 2/2 nodes done.`);
    const s = await state(name);
    expect(s.phase).toBe('Completed');
    expect(s.nodes.map((n) => n.phase)).toEqual(['done', 'done']);
    expect(
      s.log.some(
        (l) => l.message.startsWith(`resumed by ${os.hostname()}/`) && l.message.includes(`its previous holder, ${holder}, is dead`),
      ),
    ).toBe(true);
    expect(Date.parse(s.nodes[1]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(s.nodes[0]!.completedAt!));
    expect(await unschedulable(a!)).toBe(false);
    expect(await unschedulable(b!)).toBe(false);
    // Taken from the dead holder (one transition), given back at the end.
    const after = await lease(name);
    expect(after?.holderIdentity).toBeUndefined();
    expect(after?.leaseTransitions).toBe(1);

    // Over: nothing to resume.
    const again = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`rollout ${name} is Completed: there is nothing to resume`);
  });
});

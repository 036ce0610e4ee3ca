/**
 * What the guard-rail tests share on top of run-cluster.ts: a webhook receiver on loopback (the
 * notifications), a node made NotReady through the simulated kubelet, the marks a rollout puts on
 * nodes (taints, labels) read and taken off again, and the hold a rollout's record shows.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { PREFER_NO_SCHEDULE_TAINT } from '../../../src/rollout/guards/types.js';
import type { RolloutState } from '../../../src/rollout/types.js';
import { eventually } from '../../helpers/cli/cli.js';
import { CONTEXT, core, isReady, mergePatch, QUICK, rollouts, startCli, state, touched } from './run-cluster.js';

const FAULT = 'sandbox.fleetdeck.io/fault';
/** Labels the tests ask rollouts to put on: taken off every touched node at the end. */
export const GUARD_LABELS = ['fleetdeck-test/maintenance', 'fleetdeck-test/patched'];

export interface Received {
  path: string;
  body: Record<string, unknown>;
}

/** A webhook on 127.0.0.1: every POST's path and JSON body, in order. */
export async function webhookReceiver(): Promise<{ url: (path: string) => string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(body || '{}') as Record<string, unknown> });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The node reports Ready=False (the sandbox kubelet's fault), or Ready again; resolves once the API says so. */
export async function setNodeReady(node: string, ready: boolean): Promise<void> {
  touched.add(node);
  await core.patchNode({ name: node, body: { metadata: { annotations: { [FAULT]: ready ? null : 'NotReady' } } } }, mergePatch());
  await eventually(
    `node ${node} ${ready ? 'Ready' : 'NotReady'}`,
    async () => isReady(await core.readNode({ name: node })) === ready,
    60_000,
  );
}

/** The node's taints with the rollout's key, and its labels. */
export async function marks(
  node: string,
): Promise<{ taints: { key: string; value?: string; effect: string }[]; labels: Record<string, string> }> {
  const n = await core.readNode({ name: node });
  return {
    taints: (n.spec?.taints ?? []).filter((t) => t.key === PREFER_NO_SCHEDULE_TAINT) as { key: string; value?: string; effect: string }[],
    labels: n.metadata?.labels ?? {},
  };
}

/** The rollout's record once it is held by `kind`; on failure, what it was instead and what its process printed. */
export async function heldBy(name: string, kind: string, run?: { out(): string }, timeoutMs = 60_000): Promise<RolloutState> {
  let seen = 'no record';
  try {
    return await eventually(
      `rollout ${name} held by ${kind}`,
      async () => {
        const s = await state(name).catch(() => undefined);
        if (s) seen = `${s.phase}, hold ${JSON.stringify(s.hold ?? null)}, last log: ${s.log.at(-1)?.message ?? ''}`;
        return s?.phase === 'Running' && s.hold?.kind === kind ? s : undefined;
      },
      timeoutMs,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; it was ${seen}; its output: ${run?.out() ?? ''}`);
  }
}

/** The rollout's record once its phase is `phase`. */
export const inPhase = (name: string, phase: RolloutState['phase'], timeoutMs = 120_000): Promise<RolloutState> =>
  eventually(
    `rollout ${name} ${phase}`,
    async () => {
      const s = await state(name).catch(() => undefined);
      return s?.phase === phase ? s : undefined;
    },
    timeoutMs,
  );

/** Every touched node: the fault, the test's labels and the rollout's taint taken off (run-cluster.ts puts back the rest). */
export function cleanUpGuardMarks(): void {
  afterAll(async () => {
    for (const name of touched) {
      const labels = Object.fromEntries(GUARD_LABELS.map((k) => [k, null]));
      await core.patchNode({ name, body: { metadata: { annotations: { [FAULT]: null }, labels } } }, mergePatch()).catch(() => {});
      const n = await core.readNode({ name }).catch(() => undefined);
      const taints = n?.spec?.taints ?? [];
      if (taints.some((t) => t.key === PREFER_NO_SCHEDULE_TAINT))
        await core
          .patchNode({ name, body: { spec: { taints: taints.filter((t) => t.key !== PREFER_NO_SCHEDULE_TAINT) } } }, mergePatch())
          .catch(() => {});
    }
  });
}

/**
 * A rollout's process still running when its test ends (it failed) is stopped with SIGTERM: it
 * pauses and gives the cluster's rollout Lease back, so the next test's rollouts are not held by it.
 */
export function stopWhenTestEnds<T extends { child: ChildProcess; done: Promise<unknown> }>(run: T): T {
  onTestFinished(async () => {
    if (run.child.exitCode !== null || run.child.signalCode !== null) return;
    run.child.kill('SIGTERM');
    await run.done;
  });
  return run;
}

/**
 * `rollout create` of the nodes, replaced in place, holds checked every second, through the built
 * CLI; runs until the rollout ends (or its test does: then it is stopped with SIGTERM).
 */
export function createRollout(name: string, nodes: readonly string[], more: readonly string[] = []) {
  rollouts.add(name);
  for (const n of nodes) touched.add(n);
  const targets = nodes.flatMap((n) => ['--node', n]);
  const args = ['rollout', 'create', '--context', CONTEXT, ...targets, '--name', name, '--replace', 'uncordon', '--recheck', '1s'];
  return stopWhenTestEnds(startCli([...args, ...QUICK, ...more]));
}

/** The file's webhook receiver, started before its tests and closed after them. */
export function fileWebhook(): () => Awaited<ReturnType<typeof webhookReceiver>> {
  let hook: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
  beforeAll(async () => {
    hook = await webhookReceiver();
  });
  afterAll(() => hook?.close());
  return () => {
    if (!hook) throw new Error('the webhook receiver is not started yet');
    return hook;
  };
}

/**
 * `rollout create`, `abort` and `cleanup` without a cluster: what is missing or wrong in the
 * command line is said first — every missing input in one line — and only then that --yes is
 * needed (no terminal here). Nothing is read from a cluster: the kubeconfig's server answers nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli/cli.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-rollout-cli-'));
const env = { HOME: tmp, KUBECONFIG: '' };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const kubeconfig = writeUnreachableKubeconfig(path.join(tmp, 'dead.yaml'), ['dead']);
const rollout = (...args: string[]) => runCli(['rollout', ...args, '--kubeconfig', kubeconfig], { env });

/** One line on stderr (`line` exactly, or matching it), exit 2, nothing on stdout. */
function expectRefused(r: { code: number | null; stdout: string; stderr: string }, line: string | RegExp) {
  const said = typeof line === 'string' ? new RegExp(`^fleetdeck: ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`) : line;
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(said);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
}

const NODES = 'nodes: --selector SEL [--priority N], --node NAME [--priority N], or -f NODEROLLOUT.yaml';
const CONTEXT = '--context (the cluster whose nodes are replaced)';
const YES = 'rollout create changes the cluster: confirm with --yes (or look first with --dry-run)';

describe('rollout create: the missing inputs first, in one line, then --yes', () => {
  it('--in-cluster alone: --context and the nodes in one line (the current context is not taken)', async () => {
    expectRefused(await rollout('create', '--in-cluster'), `rollout create needs ${CONTEXT} and ${NODES}`);
  });

  it('one of them given: the other one', async () => {
    expectRefused(await rollout('create', '--in-cluster', '--node', 'n1'), `rollout create needs ${CONTEXT}`);
    expectRefused(await rollout('create', '--in-cluster', '--context', 'dead'), `rollout create needs ${NODES}`);
  });

  it('the flags and the context checked before --yes', async () => {
    expectRefused(await rollout('create', '--context', 'nope', '--node', 'n1'), /^fleetdeck: context "nope" is not in the kubeconfig/);
  });

  it('a bad --runner-namespace or --node before --yes', async () => {
    expectRefused(
      await rollout('create', '--in-cluster', '--context', 'dead', '--node', 'n1', '--runner-namespace', 'Bad_NS'),
      `--runner-namespace "Bad_NS" is not a namespace name (lower-case letters, digits and '-')`,
    );
    expectRefused(await rollout('create', '--context', 'dead', '--node', 'Not_A_Node'), '--node "Not_A_Node" is not a node name');
  });

  it('everything given: then --yes, before the cluster is read', async () => {
    expectRefused(await rollout('create', '--in-cluster', '--context', 'dead', '--node', 'n1'), YES);
  });
});

describe('rollout abort and cleanup: the context before --yes', () => {
  it('an unknown --context is said first', async () => {
    for (const args of [
      ['abort', 'r1', '--context', 'nope'],
      ['cleanup', '--context', 'nope'],
    ]) {
      const r = await rollout(...args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^fleetdeck: context "nope" is not in the kubeconfig \(known: dead\); check --context or --kubeconfig\n$/);
    }
    expectRefused(
      await rollout('cleanup', '--context', 'dead', '--runner-namespace', 'Bad_NS'),
      /^fleetdeck: --runner-namespace "Bad_NS" is not/,
    );
  });

  it('then --yes', async () => {
    expectRefused(await rollout('abort', 'r1', '--context', 'dead'), 'rollout abort stops the rollout: confirm with --yes');
    expectRefused(
      await rollout('cleanup', '--context', 'dead'),
      'rollout cleanup deletes objects: confirm with --yes (or look first with --dry-run)',
    );
  });
});

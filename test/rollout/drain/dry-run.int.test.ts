/** The drain's dry run on a real API server, compared with `kubectl drain --dry-run=server` on the same node. */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dryRunDrain } from '../../../src/rollout/drain/dry-run.js';
import {
  CONTEXT,
  HOSTNAME,
  NS,
  cleanNodes,
  core,
  daemonSet,
  deployment,
  kc,
  kubeconfig,
  running,
  schedulableNodes,
  setUpDrainCluster,
  unmanagedPod,
} from './drain-cluster.js';

const KUBECTL = '/usr/bin/kubectl';

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--context', CONTEXT, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** "evicting pod ns/name (server dry run)" lines of `kubectl drain --dry-run=server`. */
function kubectlEvictions(out: string): string[] {
  return [...out.matchAll(/^evicting pod (\S+) \(server dry run\)$/gm)].map((m) => m[1]!).sort();
}

/** The pods of kubectl's closing "cannot delete … (use --FLAG to override): a/b, c/d" lines, by flag. */
function kubectlRefusals(out: string): Record<string, string[]> {
  const res: Record<string, string[]> = {};
  for (const m of out.matchAll(/^cannot delete .*\(use (--[a-z-]+) to override\): (.+)$/gm)) {
    res[m[1]!] = m[2]!
      .split(/,\s*/)
      .map((p) => p.trim())
      .filter(Boolean)
      .sort();
  }
  return res;
}

setUpDrainCluster('dry');

describe('drainNode on a real API server (policy/v1beta1 evictions)', () => {
  it('the dry-run classification agrees with kubectl drain --dry-run=server on the same node', async () => {
    const nodes = await schedulableNodes();
    const clean = await cleanNodes();
    const node = clean[Math.floor(clean.length / 2)]!;
    await daemonSet(NS.dry, 'agent');
    await deployment(NS.dry, 'web', 2, { nodeSelector: { [HOSTNAME]: node } });
    await deployment(NS.dry, 'cache', 1, { nodeSelector: { [HOSTNAME]: node }, volumes: [{ name: 'scratch', emptyDir: {} }] });
    await unmanagedPod(NS.dry, 'lonely', node);
    // Unmanaged and with emptyDir: kubectl's local-storage filter comes first, so it needs --delete-emptydir-data.
    await unmanagedPod(NS.dry, 'lonely-cache', node, { volumes: [{ name: 'scratch', emptyDir: {} }] });
    await running(NS.dry, 'app=web', 2);
    await running(NS.dry, 'app=cache', 1);
    await running(NS.dry, 'app=lonely', 1);
    await running(NS.dry, 'app=lonely-cache', 1);
    await running(NS.dry, 'app=agent', nodes.length);

    // With every flag: the same pods evicted, the DaemonSet pods left alone.
    const all = { force: true, deleteEmptyDirData: true };
    const ours = await dryRunDrain(kc, [node], all);
    const theirs = await kubectl([
      'drain',
      node,
      '--dry-run=server',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--timeout=60s',
    ]);
    expect(theirs.code, theirs.stderr).toBe(0);
    const evicted = ours.nodes[0]!.pods.filter((c) => c.action === 'evict' || c.action === 'delete' || c.action === 'blocked-pdb')
      .map((c) => `${c.namespace}/${c.name}`)
      .sort();
    expect(evicted).toEqual(kubectlEvictions(theirs.stdout));
    expect(evicted).toEqual(expect.arrayContaining([`${NS.dry}/lonely`]));
    expect(evicted.filter((p) => p.startsWith(`${NS.dry}/`))).toHaveLength(5);
    const agent = ours.nodes[0]!.pods.find((c) => c.namespace === NS.dry && c.name.startsWith('agent-'))!;
    expect(agent.action).toBe('ignored-daemonset');
    expect(theirs.stderr).toContain(`ignoring DaemonSet-managed Pods: `);
    expect(theirs.stderr).toContain(`${NS.dry}/${agent.name}`);
    expect(ours.room.fits).toBe(true);
    expect(ours.room.detail).toMatch(/sum/);

    // Without the flags: the same pods refused, for the same flag.
    const plain = await dryRunDrain(kc, [node], { force: false, deleteEmptyDirData: false });
    const refusedTheirs = await kubectl(['drain', node, '--dry-run=server', '--ignore-daemonsets', '--timeout=60s']);
    expect(refusedTheirs.code).not.toBe(0);
    const byFlag = (action: string) =>
      plain.nodes[0]!.pods.filter((c) => c.action === action)
        .map((c) => `${c.namespace}/${c.name}`)
        .sort();
    const theirRefusals = kubectlRefusals(refusedTheirs.stderr + refusedTheirs.stdout);
    expect(byFlag('needs-force')).toEqual(theirRefusals['--force'] ?? []);
    expect(byFlag('needs-delete-emptydir-data')).toEqual(theirRefusals['--delete-emptydir-data'] ?? []);
    expect(byFlag('needs-force')).toContain(`${NS.dry}/lonely`);
    expect(byFlag('needs-delete-emptydir-data')).toContain(`${NS.dry}/lonely-cache`);
    expect(plain.nodes[0]!.refused).toContain('--force');

    // Neither dry run changed the node.
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();
  });
});

/**
 * The session owns the write gate: every KubeConfig it gives out (per context, for one command's
 * context, for several, from another kubeconfig file) refuses changes under --read-only, and two
 * sessions of one process each keep their own. Its API servers are a closed port: a request
 * that passes the gate fails on the network instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { UserError } from '../../src/errors.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { ReadOnlyRefusal } from '../../src/kube/transport/gate.js';
import { openSession, startSession } from '../../src/session/session.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-session-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const kubeconfigFile = (name: string) => writeUnreachableKubeconfig(path.join(dir, name), ['a', 'b']);

/** What a node patch through a client made from `kc` ends in: the gate's refusal, or the network's error. */
async function patchNode(kc: KubeConfig): Promise<unknown> {
  const core = makeClient(kc, CoreV1Api, 5_000);
  return core.patchNode({ name: 'n1', body: [{ op: 'replace', path: '/spec/unschedulable', value: true }] }).catch((err: unknown) => err);
}

const READ_ONLY_PATCH = 'read-only: PATCH /api/v1/nodes/n1 is refused (fleetdeck runs with --read-only)';

describe('the session and its write gate', () => {
  it('two sessions of one process keep their own --read-only: the first refuses a write, the second sends it', async () => {
    // Given a read-only session and, after it, a writable one over the same kubeconfig
    const kubeconfig = kubeconfigFile('two');
    const readOnly = openSession({ kubeconfig, readOnly: true }, { useFleetFile: false });
    const writable = openSession({ kubeconfig }, { useFleetFile: false });
    expect(readOnly.readOnly).toBe(true);
    expect(writable.readOnly).toBe(false);

    // When each patches a node
    const refused = await patchNode(readOnly.kc('a'));
    const sent = await patchNode(writable.kc('a'));

    // Then the first is stopped at its gate, the second goes out (and meets the closed port)
    expect(refused).toBeInstanceOf(ReadOnlyRefusal);
    expect((refused as Error).message).toBe(READ_ONLY_PATCH);
    expect(sent).toBeInstanceOf(Error);
    expect(sent).not.toBeInstanceOf(ReadOnlyRefusal);
    // And the first is still refused once the second exists
    expect(await patchNode(readOnly.kc('b'))).toBeInstanceOf(ReadOnlyRefusal);
    expect(() => writable.assertWritable('rollout abort uncordons nodes')).not.toThrow();
    expect(() => readOnly.assertWritable('rollout abort uncordons nodes')).toThrow(
      'rollout abort uncordons nodes and is refused with --read-only',
    );
  });

  it('lets reads through under --read-only', async () => {
    const session = openSession({ kubeconfig: kubeconfigFile('reads'), readOnly: true }, { useFleetFile: false });
    const read = await makeClient(session.kc('a'), CoreV1Api, 5_000)
      .listNode()
      .catch((err: unknown) => err);
    expect(read).toBeInstanceOf(Error);
    expect(read).not.toBeInstanceOf(ReadOnlyRefusal);
  });

  it("gives its gate to every KubeConfig it hands out: one command's context, several, another kubeconfig file, the run's session reopened on another", async () => {
    const kubeconfig = kubeconfigFile('all');
    const other = writeUnreachableKubeconfig(path.join(dir, 'other'), ['nova']);
    const session = startSession({ kubeconfig, context: ['b'], readOnly: true }, { useFleetFile: false });
    const kcs = [
      session.one('a test works on one cluster').kc,
      ...session.several('test').map((c) => c.kc),
      session.config,
      session.userKubeconfig().config,
      session.readKubeconfig(other).config,
      session.withContexts(['a']).kc('a'),
      session.reopened({ kubeconfig: other, context: [] }, { useFleetFile: false }).kc('nova'),
    ];
    for (const kc of kcs) expect(await patchNode(kc)).toBeInstanceOf(ReadOnlyRefusal);
    const writable = startSession({ kubeconfig, context: ['b'] }, { useFleetFile: false });
    expect(await patchNode(writable.one('a test works on one cluster').kc)).not.toBeInstanceOf(ReadOnlyRefusal);
  });

  it('refuses with a named action before it reads anything', () => {
    // Given a kubeconfig that does not exist
    const session = startSession({ kubeconfig: path.join(dir, 'missing'), readOnly: true });
    // Then the refusal comes first, the kubeconfig's error once something is read
    const refusal = (() => {
      try {
        session.assertWritable('restore writes to the control plane', ' (use --dry-run to see its plan)');
      } catch (err) {
        return err;
      }
    })();
    expect(refusal).toBeInstanceOf(ReadOnlyRefusal);
    expect((refusal as ReadOnlyRefusal).exitCode).toBe(2);
    expect((refusal as Error).message).toBe(
      'restore writes to the control plane and is refused with --read-only (use --dry-run to see its plan)',
    );
    expect(() => session.one('a test works on one cluster')).toThrow(/missing does not exist/);
    expect(() => openSession({ kubeconfig: path.join(dir, 'missing') })).toThrow(UserError);
  });

  it('reads the kubeconfig once: the file gone after the first read changes nothing for it', () => {
    const kubeconfig = kubeconfigFile('once');
    const session = startSession({ kubeconfig, context: ['a'] }, { useFleetFile: false });
    const first = session.one('a test works on one cluster');
    fs.rmSync(kubeconfig);
    expect(session.one('a test works on one cluster').kc).toBe(first.kc);
    expect(session.several('test').map((c) => c.context)).toEqual(['a']);
    expect(session.contexts.map((c) => c.name)).toEqual(['a']);
    expect(session.kc('a')).toBe(first.kc);
    expect(session.withContexts([]).contexts.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('reopened on another kubeconfig (a sandbox started, a fleet installed), it reads that file afresh', () => {
    const kubeconfig = kubeconfigFile('before');
    const other = writeUnreachableKubeconfig(path.join(dir, 'after'), ['nova', 'a']);
    const session = openSession({ kubeconfig, readOnly: true }, { useFleetFile: false });
    const next = session.reopened({ kubeconfig: other }, { useFleetFile: false });
    expect(next.contexts.map((c) => c.name)).toEqual(['nova', 'a']);
    expect(next.readOnly).toBe(true);
    expect(() => session.reopened({ kubeconfig: path.join(dir, 'gone') })).toThrow(/gone does not exist/);
  });

  it('reopened as it is (a kubeconfig edited), it reads every file of KUBECONFIG again, not only the first', () => {
    const first = writeUnreachableKubeconfig(path.join(dir, 'env-a'), ['a']);
    const second = writeUnreachableKubeconfig(path.join(dir, 'env-b'), ['b']);
    const before = process.env.KUBECONFIG;
    process.env.KUBECONFIG = [first, second].join(path.delimiter);
    try {
      const session = openSession({}, { useFleetFile: false });
      expect(session.contexts.map((c) => c.name)).toEqual(['a', 'b']);
      writeUnreachableKubeconfig(second, ['b', 'c']);
      expect(session.reopened({}).contexts.map((c) => c.name)).toEqual(['a', 'b', 'c']);
    } finally {
      if (before === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = before;
    }
  });
});

describe('a fleet file whose clusters are not this kubeconfig’s', () => {
  /** A kubeconfig whose contexts kind-cp and kind-workload-1 point at `port`, and a fleet file that recorded them at 6443. */
  function twoFleets(port: number) {
    const kubeconfig = path.join(dir, `same-names-${port}`);
    fs.writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]`,
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: kind-cp, context: {cluster: c, user: u}}, {name: kind-workload-1, context: {cluster: c, user: u}}, {name: mine, context: {cluster: c, user: u}}]',
        'current-context: kind-cp',
      ].join('\n'),
    );
    const fleetFile = path.join(dir, `fleet-${port}.yaml`);
    const id = { server: 'https://127.0.0.1:6443', ca: [], kubeconfig: '/home/me/.kube/sandbox' };
    // The control plane's kubeconfig the install wrote, beside the fleet file.
    const written = writeUnreachableKubeconfig(path.join(dir, `nova-${port}.kubeconfig`), ['nova']);
    fs.writeFileSync(
      fleetFile,
      stringify({
        kubeconfig: written,
        hostingContext: 'kind-cp',
        workloads: ['kind-workload-1'],
        identities: { 'kind-cp': id, 'kind-workload-1': id },
      }),
    );
    vi.stubEnv('FLEETDECK_FLEET_FILE', fleetFile);
    return { kubeconfig, fleetFile };
  }
  afterEach(() => vi.unstubAllEnvs());

  it('the dashboard and status keep the fleet with its problems and show the kubeconfig’s own contexts', () => {
    const { kubeconfig } = twoFleets(7443);
    const s = openSession({ kubeconfig }, { showFleetProblems: true });
    expect(s.contexts.map((c) => c.name)).toEqual(['kind-cp', 'kind-workload-1', 'mine']);
    expect(s.fleet?.problems?.['kind-cp']?.detail).toBe(
      'context kind-cp is another cluster than the fleet file recorded: it recorded https://127.0.0.1:6443 (no CA), the kubeconfig says https://127.0.0.1:7443 (no CA)',
    );
    expect(Object.keys(s.fleet?.problems ?? {})).toEqual(['kind-cp', 'kind-workload-1']);
    // The kubeconfig's alone: not the control plane's context nor the file of the fleet file.
    expect(s.files).toEqual([kubeconfig]);
  });

  it('a command refuses it in one line, exit 2, naming the fix; the same kubeconfig at the recorded server is the fleet', () => {
    const { kubeconfig } = twoFleets(7444);
    let err: unknown;
    try {
      void openSession({ kubeconfig }).fleet;
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(
      /^context kind-cp is another cluster than the fleet file recorded: .* \(and 1 more context\); point KUBECONFIG \(or --kubeconfig\) at the kubeconfig of the fleet recorded \(\/home\/me\/\.kube\/sandbox\); /,
    );
    expect((err as Error).message).not.toContain('\n');
    const same = twoFleets(6443);
    const s = openSession({ kubeconfig: same.kubeconfig });
    expect(s.fleet?.problems).toBeUndefined();
    expect(s.contexts.map((c) => c.name)).toEqual(['kind-cp', 'nova', 'kind-workload-1']);
    expect(s.files).toHaveLength(2);
  });

  it('every context (get --all-contexts): the control plane’s the install wrote too, unless the fleet is not this kubeconfig’s', () => {
    const here = twoFleets(6443);
    const all = openSession({ kubeconfig: here.kubeconfig }, { showFleetProblems: true, allContexts: true });
    expect(all.contexts.map((c) => c.name)).toEqual(['kind-cp', 'kind-workload-1', 'mine', 'nova']);
    const elsewhere = twoFleets(7446);
    const mixed = openSession({ kubeconfig: elsewhere.kubeconfig }, { showFleetProblems: true, allContexts: true });
    expect(mixed.contexts.map((c) => c.name)).toEqual(['kind-cp', 'kind-workload-1', 'mine']);
  });

  it('a command of the control plane alone (backup, restore) is not stopped by a workload cluster that is gone', () => {
    const { kubeconfig, fleetFile } = twoFleets(6443);
    const record = parse(fs.readFileSync(fleetFile, 'utf8'));
    record.workloads = ['kind-workload-1', 'gone'];
    fs.writeFileSync(fleetFile, stringify(record));
    expect(() => openSession({ kubeconfig }).contexts).toThrow(/^workload context "gone" is not in the kubeconfig/);
    expect(openSession({ kubeconfig }, { needs: 'control-plane' }).fleet?.problems?.gone).toBeDefined();
  });

  it('a context the fleet file recorded is checked however it is named: by the file or by a flag', () => {
    const { kubeconfig } = twoFleets(7445);
    expect(() => openSession({ kubeconfig, hostingContext: 'kind-cp', context: ['kind-workload-1'] }).contexts).toThrow(
      /^context kind-cp is another cluster than the fleet file recorded: /,
    );
    const s = openSession({ kubeconfig, context: ['mine'] }, { showFleetProblems: true });
    // Its hosting cluster elsewhere: the kubeconfig's contexts the flags name, not the fleet's.
    expect(s.contexts.map((c) => c.name)).toEqual(['mine']);
  });

  it('a recorded hosting context that is gone: the dashboard shows the contexts there are; a command says which is missing', () => {
    const kubeconfig = kubeconfigFile('no-fleet-here');
    const fleetFile = path.join(dir, 'fleet-gone.yaml');
    fs.writeFileSync(fleetFile, 'hostingContext: kind-cp\nworkloads: [kind-workload-1]\n');
    vi.stubEnv('FLEETDECK_FLEET_FILE', fleetFile);
    const s = openSession({ kubeconfig }, { showFleetProblems: true });
    expect(s.contexts.map((c) => c.name)).toEqual(['a', 'b']);
    expect(s.fleet?.problems?.['kind-cp']?.detail).toMatch(
      /^hosting context "kind-cp" \(from the fleet file .*fleet-gone\.yaml\) is not in the kubeconfig$/,
    );
    expect(() => openSession({ kubeconfig }).contexts).toThrow(
      /^hosting context "kind-cp" .* is not in the kubeconfig \(and 1 more context\); check --hosting-context or --kubeconfig$/,
    );
  });
});

/**
 * --read-only seen from the API servers, for the dashboard: every tab's action that changes a
 * cluster, dispatched through the real feeds and workflows (past the screens' own refusals, as a
 * forgotten check in a screen would), is stopped by the write gate with one line, and the
 * sandbox's audit logs show no create, update, patch or delete from fleetdeck's user. The
 * commands' side is test/kube/transport/gate.int.test.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedsOf, registry } from '../../src/dashboard/registry.js';
import { createFeeds, type Feeds } from '../../src/feeds/feeds.js';
import { rolloutWork } from '../../src/feeds/rollouts/work.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { listPlanNodes } from '../../src/rollout/nodes.js';
import { initialState, resolvePlan } from '../../src/rollout/plan.js';
import { createRollout } from '../../src/rollout/state.js';
import { ROLLOUT_NAMESPACE, configMapName } from '../../src/rollout/types.js';
import { type AuditEvent, mutatingEvents, readAuditEvents } from '../../src/sandbox/audit.js';
import { ADMIN_USER } from '../../src/sandbox/credentials.js';
import { readState } from '../../src/sandbox/state.js';
import { openSession } from '../../src/session/session.js';
import { createFleetStore, type FleetStore } from '../../src/store/fleet-store.js';
import type { InstallChoices } from '../../src/store/install.js';
import { targetKey } from '../../src/store/storage.js';
import { eventually } from '../helpers/cli/cli.js';
import { type CsrFixture, csrFixture } from '../helpers/sandbox/csr-sandbox.js';
import { spec } from '../helpers/objects/rollout.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-1';
/** The gate's refusal, as the slices show it: one line ending in the request refused. */
const GATE = /^[^\n]*read-only: (POST|PUT|PATCH|DELETE) \/\S+ is refused \(fleetdeck runs with --read-only\)$/;

function adminEvents(since?: Date): AuditEvent[] {
  const state = readState(sandbox().dir);
  if (!state) throw new Error('no sandbox state');
  return state.clusters.flatMap((c) => readAuditEvents(c.auditLog, { ...(since ? { since } : {}), user: ADMIN_USER }));
}

/** Reads a ConfigMap that is not there and waits for the audit log to hold the read: when the API server received it. */
async function marker(kc: KubeConfig): Promise<Date> {
  const name = `audit-marker-${randomUUID()}`;
  await makeClient(kc, CoreV1Api)
    .readNamespacedConfigMap({ name, namespace: 'default' })
    .catch(() => {});
  let at: Date | undefined;
  await eventually('the marker request in the audit log', () => {
    const e = adminEvents().find((x) => x.requestURI.includes(name));
    at = e && new Date(e.requestReceivedTimestamp);
    return at !== undefined;
  });
  return at!;
}

describe('--read-only: every tab of the dashboard, seen from the API servers', () => {
  const kubeconfig = sandbox().kubeconfig;
  const kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  const existing = `ro-${randomUUID().slice(0, 8)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-ro-'));
  let csr: CsrFixture;
  /** The worker the rollouts name, picked from the cluster as it is. */
  let NODE = '';
  let store: FleetStore;
  let feeds: Feeds;

  beforeAll(async () => {
    // A paused rollout and a pending CSR to act on, made before the gate closes.
    // A worker as it is now: earlier tests' rollouts may have replaced the sandbox's first nodes.
    const nodes = await listPlanNodes(kc, CONTEXT);
    const worker = nodes.find(
      (n) => n.ready && !n.unschedulable && !Object.keys(n.labels).some((l) => l.startsWith('node-role.kubernetes.io/control')),
    );
    if (!worker) throw new Error(`${CONTEXT} has no Ready, schedulable worker to plan a rollout on`);
    NODE = worker.name;
    const s = spec({ name: existing, context: CONTEXT, nodeNames: [{ name: NODE, priority: 1 }] });
    await createRollout(kc, initialState(s, resolvePlan(nodes, s)));
    csr = await csrFixture(kubeconfig, CONTEXT, 'ro');
    await csr.clientCsr(`${csr.P}-pending`, csr.as(csr.REQ_A));
  });

  afterAll(async () => {
    await feeds?.stop();
    await makeClient(kc, CoreV1Api)
      .deleteNamespacedConfigMap({ name: configMapName(existing), namespace: ROLLOUT_NAMESPACE })
      .catch(() => {});
    await csr?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every action that changes a cluster is refused by the gate in one line; the audit logs show no change', async () => {
    // From a request received after the fixture's own changes.
    const since = await marker(kc);
    const session = openSession({ kubeconfig, readOnly: true }, { useFleetFile: false });
    store = createFleetStore(session.contexts, session.fleet);
    feeds = createFeeds(store, session, feedsOf(registry({ install: { fleetFile: path.join(dir, 'fleet.yaml') } })));
    const { rollouts, approvals, storage, install, logs } = feeds.actions;
    const failed = (name: string) => {
      const a = store.getState().rollouts.actions[`${CONTEXT}/${name}`];
      return a?.state === 'failed' ? a.error : undefined;
    };

    // Rollouts: a new rollout here and in the cluster, resume and abort of the paused one, a Navarchos NodeRollout.
    rollouts!.show();
    await eventually('the rollouts feed', () => store.getState().rollouts.status === 'on');
    const fresh = spec({ name: `ro-new-${randomUUID().slice(0, 6)}`, context: CONTEXT, nodeNames: [{ name: NODE, priority: 1 }] });
    const inCluster = { ...fresh, name: `${fresh.name}-ic` };
    rollouts!.run(fresh);
    rollouts!.run(inCluster, true);
    rollouts!.resume(CONTEXT, existing);
    await eventually('resume refused', () => failed(existing) !== undefined);
    expect(failed(existing)).toMatch(GATE);
    rollouts!.abort(CONTEXT, existing);
    await eventually(
      'abort refused',
      () => store.getState().rollouts.actions[`${CONTEXT}/${existing}`]?.kind === 'abort' && failed(existing),
    );
    for (const name of [fresh.name, inCluster.name, existing])
      expect({ name, error: failed(name) }).toEqual({ name, error: expect.stringMatching(GATE) });
    // A Navarchos NodeRollout, as the wizard's confirm creates it on a context that runs Navarchos.
    await expect(rolloutWork(session).createNodeRollout(CONTEXT, { nodeNames: [{ name: NODE, priority: 1 }] })).rejects.toThrow(GATE);

    // Approvals: approve and deny a pending CSR.
    approvals!.open(CONTEXT);
    const pending = `${csr.P}-pending`;
    await eventually('the CSR listed', () => store.getState().approvals.csrs?.some((c) => c.name === pending));
    for (const decide of [approvals!.approve, approvals!.deny]) {
      decide(pending);
      await eventually('the decision answered', () => store.getState().approvals.line !== undefined && !store.getState().approvals.busy);
      const line = store.getState().approvals.line!;
      expect(line.kind).toBe('fail');
      expect(line.text).toContain('is refused (fleetdeck runs with --read-only)');
      expect(line.text).not.toContain('\n');
    }
    approvals!.close();

    // Install: the wizard's install, with its choices (the screen refuses first; here the feed asks the gate).
    install!.open();
    await eventually('the install wizard loaded', () => store.getState().install.wizard === 'open');
    const choices: InstallChoices = {
      hosting: 'kind-cp',
      workloads: [CONTEXT],
      clusterNames: {},
      namespace: 'elotl-ro',
      ha: false,
      topologyKey: 'kubernetes.io/hostname',
      validityYears: 1,
      mergeKubeconfig: false,
    };
    install!.install(choices);
    await eventually('the install answered', () => store.getState().install.steps?.done === true);
    const said = JSON.stringify(store.getState().install.steps);
    expect(said).toMatch(/is refused \(fleetdeck runs with --read-only\)|is refused with --read-only/);
    install!.close(1);

    // Storage reads, the log view reads and saves to a local file: allowed, and nothing written either.
    storage!.show();
    storage!.read({ kind: 'context', name: CONTEXT });
    await eventually('the storage inventory read', () => {
      const e = store.getState().storage.inventories[targetKey({ kind: 'context', name: CONTEXT })];
      return e !== undefined && !e.loading;
    });
    logs!.openLogs({ title: 'pods', context: CONTEXT, namespace: 'default', selector: 'app' });
    await eventually('the log view resolved', () => store.getState().logs.phase !== 'resolving');
    logs!.close();

    // A marker read after every request above: once the audit log has it, the log is complete.
    const until = await marker(kc);
    const events = adminEvents(since).filter((e) => Date.parse(e.requestReceivedTimestamp) <= until.getTime());
    // The actions did reach the clusters to read (the gate stops changes, not reads).
    expect(events.some((e) => e.requestURI.includes('certificatesigningrequests'))).toBe(true);
    expect(mutatingEvents(events).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});

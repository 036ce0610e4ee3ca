/**
 * --read-only from the keyboard: every key of the registry marked dangerous, pressed where it
 * applies on the dashboard running on the sandbox (real feeds, real workflows, a user of this
 * test's own), answers with the write gate's one line, and the API servers' audit logs show no
 * create, update, patch or delete from that user.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { cleanup } from 'ink-testing-library';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { gateView } from '../../src/dashboard/gate-view.js';
import { feedsOf, registry } from '../../src/dashboard/registry.js';
import { createFeeds, type Feeds } from '../../src/feeds/feeds.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { listPlanNodes } from '../../src/rollout/nodes.js';
import { initialState, resolvePlan } from '../../src/rollout/plan.js';
import { createRollout } from '../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../src/rollout/types.js';
import { mutatingEvents, readAuditEvents } from '../../src/sandbox/audit.js';
import { readState } from '../../src/sandbox/state.js';
import { openSession } from '../../src/session/session.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { eventually } from '../helpers/cli.js';
import { type CsrFixture, csrFixture } from '../helpers/csr-sandbox.js';
import { ownUserKubeconfig } from '../helpers/own-user.js';
import { spec } from '../helpers/rollout.js';
import { appProps, KEYS, oneLine, renderApp, type Screen } from '../helpers/screen.js';

const CONTEXT = 'kind-workload-1';
const USER = `fd-keys-${randomUUID().slice(0, 8)}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-ro-keys-'));
const PAUSED = `ro-keys-${randomUUID().slice(0, 6)}`;
let csr: CsrFixture;
let feeds: Feeds | undefined;

/** The line under the cursor (❯) shows `text`: j until it does. */
async function select(screen: Screen, text: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (
      screen
        .frame()
        .split('\n')
        .some((l) => l.includes('❯') && l.includes(text))
    )
      return;
    await screen.press('j');
  }
  throw new Error(`no row with ${text} under the cursor:\n${screen.frame()}`);
}

/**
 * Where each dangerous key applies, and how to get there: the screen opened at the Status tab,
 * the key pressed last by the test. A dangerous key of the registry without a route fails the test.
 */
const ROUTES: Record<string, { key: string; go: (s: Screen) => Promise<void> }> = {
  'rollout resume cordons, drains and replaces nodes': { key: 'r', go: (s) => openPaused(s) },
  'rollout abort uncordons nodes': { key: 'a', go: (s) => openPaused(s) },
  'a new rollout cordons, drains and replaces nodes': {
    key: KEYS.enter,
    go: async (s) => {
      await openPaused(s);
      await s.press('n');
      await s.waitFor('1/6 Context');
      await s.press(KEYS.enter);
      await s.waitFor(`Nodes by label selector · ${CONTEXT}`);
      await s.press(KEYS.enter);
      await s.waitFor('Nodes by name');
      await s.press(' ', KEYS.enter);
      await s.waitFor('Priority of each node');
      await s.press(KEYS.enter);
      await s.waitFor('How each node is replaced');
      await s.press(KEYS.enter);
      await s.waitFor((f) => f.includes('The plan and the dry run') && !f.includes('classifying'), 60_000);
    },
  },
  'approve approves certificate requests': { key: 'y', go: (s) => openApprovals(s) },
  'approve denies certificate requests': { key: 'd', go: (s) => openApprovals(s) },
};

async function openPaused(s: Screen): Promise<void> {
  await s.press('3');
  await s.waitFor(PAUSED, 30_000);
  await select(s, PAUSED);
  await s.press(KEYS.enter);
  await s.waitFor(`${PAUSED} · ${CONTEXT}`);
}

async function openApprovals(s: Screen): Promise<void> {
  await s.waitFor(CONTEXT);
  await select(s, CONTEXT);
  await s.press('A');
  await s.waitFor(`${csr.P}-pending`, 30_000);
  await select(s, `${csr.P}-pending`);
}

function userEvents(since: Date) {
  const state = readState(inject('sandboxDir'));
  if (!state) throw new Error('no sandbox state');
  return state.clusters.flatMap((c) => readAuditEvents(c.auditLog, { since, user: USER }));
}

describe('--read-only: every dangerous key of the dashboard', () => {
  const admin = configForContext(loadKubeconfig({ kubeconfig: inject('kubeconfig') }).config, CONTEXT);

  beforeAll(async () => {
    // A paused rollout and a pending CSR to act on, made by the sandbox's admin.
    const nodes = await listPlanNodes(admin, CONTEXT);
    const worker = nodes.find((n) => n.ready && !n.unschedulable && !Object.keys(n.labels).some((l) => l.includes('control')));
    if (!worker) throw new Error(`${CONTEXT} has no Ready, schedulable worker`);
    const s = spec({ name: PAUSED, context: CONTEXT, nodeNames: [{ name: worker.name, priority: 1 }] });
    await createRollout(admin, { ...initialState(s, resolvePlan(nodes, s)), phase: 'Paused' });
    csr = await csrFixture(inject('kubeconfig'), CONTEXT, 'rokeys');
    await csr.clientCsr(`${csr.P}-pending`, csr.as(csr.REQ_A));
  });

  afterAll(async () => {
    cleanup();
    await feeds?.stop();
    await makeClient(admin, CoreV1Api)
      .deleteNamespacedConfigMap({ name: configMapName(PAUSED), namespace: ROLLOUT_NAMESPACE })
      .catch(() => {});
    await csr?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('each answers with the gate’s line, and no API server saw a change', async () => {
    const tabs = registry();
    const dangerous = [
      ...new Set([...tabs.tabs, ...tabs.overlays].flatMap((t) => t.keys.flatMap((k) => k.actions)).flatMap((a) => a.dangerous ?? [])),
    ];
    expect(
      dangerous.filter((d) => !ROUTES[d]),
      'a dangerous key no route of this test presses',
    ).toEqual([]);

    const since = new Date(Date.now() - 1000);
    const kubeconfig = await ownUserKubeconfig(USER, dir);
    const session = openSession({ kubeconfig, readOnly: true }, { useFleetFile: false });
    const store = createFleetStore(session.contexts, session.fleet);
    feeds = createFeeds(store, session, feedsOf(tabs));
    for (const what of dangerous) {
      const route = ROUTES[what]!;
      // Each key from a dashboard just opened: what the one before left open in the store is closed.
      feeds.actions.approvals?.close();
      feeds.actions.rollouts?.wizard.close();
      const screen = await renderApp(appProps(store, { ...tabs, actions: feeds.actions, gate: gateView(session) }), {
        columns: 100,
        rows: 30,
      });
      await route.go(screen);
      await screen.press(route.key);
      await screen.waitFor(oneLine(`${what} and is refused with --read-only`));
      cleanup();
    }

    // A read after every request above: once the audit log has it, the log is complete.
    const marker = `audit-marker-${randomUUID()}`;
    await makeClient(session.kc(CONTEXT), CoreV1Api)
      .readNamespacedConfigMap({ name: marker, namespace: 'default' })
      .catch(() => {});
    await eventually('the marker in the audit log', () => userEvents(since).some((e) => e.requestURI.includes(marker)));
    const events = userEvents(since);
    // The dashboard did read the clusters as that user (the gate stops changes, not reads).
    expect(events.some((e) => e.requestURI.includes('certificatesigningrequests'))).toBe(true);
    expect(mutatingEvents(events).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
  });
});

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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { openSession, type Session } from '../../src/session/session.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { eventually } from '../helpers/cli/cli.js';
import { type CsrFixture, csrFixture } from '../helpers/sandbox/csr-sandbox.js';
import { type NovaFleet, novaFleet } from '../helpers/sandbox/nova-fleet.js';
import { ownUserKubeconfig } from '../helpers/sandbox/own-user.js';
import { spec } from '../helpers/objects/rollout.js';
import { appProps, KEYS, oneLine, renderApp, type Screen } from '../helpers/screens/screen.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-1';
const USER = `fd-keys-${randomUUID().slice(0, 8)}`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-ro-keys-'));
/** How long a page that reads the cluster may take to show, on a loaded machine. */
const WAIT = 30_000;
const PAUSED = `ro-keys-${randomUUID().slice(0, 6)}`;
let csr: CsrFixture;
let nova: NovaFleet;
const opened: Feeds[] = [];
const before = { FLEETDECK_FLEET_FILE: process.env.FLEETDECK_FLEET_FILE, FLEETDECK_SANDBOX_DIR: process.env.FLEETDECK_SANDBOX_DIR };

/** The dashboard on `session`: its store, its feeds (all of the registry's), its props. */
function dashboard(session: Session) {
  // The install wizard's fleet file in the test's folder: refused, it writes none anyway.
  const tabs = registry({ install: { fleetFile: path.join(dir, 'fleet.yaml') } });
  const store = createFleetStore(session.contexts, session.fleet);
  const feeds = createFeeds(store, session, feedsOf(tabs));
  opened.push(feeds);
  return { session, feeds, props: appProps(store, { ...tabs, actions: feeds.actions, gate: gateView(session) }) };
}

/** The line under the cursor (❯ in tables, › in menus). */
const pointed = (frame: string) => frame.split('\n').find((l) => /^\s*[❯›]/.test(l)) ?? '';

/** The line under the cursor shows `text`: j, each time until the cursor has moved, until it does. */
async function select(screen: Screen, text: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const at = pointed(screen.frame());
    if (at.includes(text)) return;
    await screen.press('j');
    await screen.waitFor((f) => pointed(f) !== at);
  }
  throw new Error(`no row with ${text} under the cursor:\n${screen.frame()}`);
}

/** A route: how to get where a dangerous key applies (from the Status tab), the key, and the gate's words for it there. */
interface Route {
  go: (s: Screen) => Promise<void>;
  key: string;
  words: string;
  /** The clusters are not recognised as the sandbox's (the install wizard then asks for y). */
  offSandbox?: boolean;
}

/**
 * Where each dangerous key applies, by its table and words, and how to get there; or why no
 * sandbox has a place for it. A dangerous key of the registry with neither fails the test.
 */
const ROUTES: Record<string, Route | { unreachable: string }> = {
  'Rollout · resume': { key: 'r', words: 'rollout resume cordons, drains and replaces nodes', go: (s) => openPaused(s) },
  'Rollout · abort (y/n)': { key: 'a', words: 'rollout abort uncordons nodes', go: (s) => openPaused(s) },
  'Abort? · abort it': { unreachable: 'the question is asked only after a, which read-only refuses first' },
  'New rollout · start the rollout': {
    key: KEYS.enter,
    words: 'a new rollout cordons, drains and replaces nodes',
    go: (s) => newRolloutPlan(s),
  },
  'Approvals · approve (y/n)': { key: 'y', words: 'approve approves certificate requests', go: (s) => openApprovals(s) },
  'Approvals · deny (y/n)': { key: 'd', words: 'approve denies certificate requests', go: (s) => openApprovals(s) },
  'Install wizard · install': { key: KEYS.enter, words: 'install changes clusters', go: (s) => installPlan(s) },
  'Install wizard · install the reference bundle': {
    key: 'y',
    words: 'install changes clusters',
    offSandbox: true,
    go: (s) => installPlan(s),
  },
  'Day 2 · confirm: run it': { key: KEYS.enter, words: 'certs renew changes the control plane', go: (s) => renewPlan(s) },
};

/** The dangerous keys of the registry, by their table's title and their words. */
function dangerousKeys(): string[] {
  const { tabs, overlays } = registry();
  return [...tabs, ...overlays].flatMap((t) =>
    t.keys.flatMap((table) => table.actions.filter((a) => a.dangerous).map((a) => `${table.title} · ${a.description}`)),
  );
}

async function newRolloutPlan(s: Screen): Promise<void> {
  await openPaused(s);
  await s.press('n');
  await s.waitFor('1/6 Context', WAIT);
  await s.press(KEYS.enter);
  // Enter goes on once the nodes are listed
  await s.waitFor((f) => f.includes(`Nodes by label selector · ${CONTEXT}`) && / nodes? in the cluster/.test(f), WAIT);
  await s.press(KEYS.enter);
  await s.waitFor('Nodes by name', WAIT);
  await s.press(' ', KEYS.enter);
  await s.waitFor('Priority of each node', WAIT);
  await s.press(KEYS.enter);
  await s.waitFor('How each node is replaced', WAIT);
  await s.press(KEYS.enter);
  await s.waitFor((f) => f.includes('The plan and the dry run') && !f.includes('classifying'), 60_000);
}

/** The install wizard on the sandbox's hosting cluster, to its plan. */
async function installPlan(s: Screen): Promise<void> {
  await s.press('2');
  await s.waitFor('Press enter to start the install wizard', WAIT);
  await s.press(KEYS.enter);
  await s.waitFor('Hosting cluster', WAIT);
  // Every page's default, to the checks, then the plan.
  for (let i = 0; i < 12 && !s.frame().includes('Prerequisite checks'); i++) await s.press(KEYS.enter);
  // The checks done: Enter goes on.
  await s.waitFor((f) => f.includes('Prerequisite checks') && f.includes('enter continue'), 60_000);
  await s.press(KEYS.enter);
  await s.waitFor('The plan', 30_000);
}

/** Day 2, Renew certificates, to its plan (it would rewrite the control plane's certificates). */
async function renewPlan(s: Screen): Promise<void> {
  await s.press('2');
  await s.waitFor('Press d for day 2', WAIT);
  await s.press('d');
  await s.waitFor('Renew certificates', 30_000);
  await select(s, 'Renew certificates');
  await s.press(KEYS.enter);
  await s.waitFor((f) => f.includes('enter confirm') || f.includes('is refused with --read-only'), 60_000);
}

async function openPaused(s: Screen): Promise<void> {
  await s.press('3');
  await s.waitFor(PAUSED, 30_000);
  await select(s, PAUSED);
  await s.press(KEYS.enter);
  await s.waitFor(`${PAUSED} · ${CONTEXT}`, WAIT);
}

async function openApprovals(s: Screen): Promise<void> {
  await s.waitFor(CONTEXT, WAIT);
  await select(s, CONTEXT);
  await s.press('A');
  await s.waitFor(`${csr.P}-pending`, 30_000);
  await select(s, `${csr.P}-pending`);
}

function userEvents(since: Date) {
  const state = readState(sandbox().dir);
  if (!state) throw new Error('no sandbox state');
  return state.clusters.flatMap((c) => readAuditEvents(c.auditLog, { since, user: USER }));
}

describe('--read-only: every dangerous key of the dashboard', () => {
  const admin = configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, CONTEXT);

  beforeAll(async () => {
    // A control plane for the Day 2 page.
    nova = novaFleet(sandbox().kubeconfig, 'rokeys');
    const installed = await nova.install();
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    // A paused rollout and a pending CSR to act on, made by the sandbox's admin.
    const nodes = await listPlanNodes(admin, CONTEXT);
    const worker = nodes.find((n) => n.ready && !n.unschedulable && !Object.keys(n.labels).some((l) => l.includes('control')));
    if (!worker) throw new Error(`${CONTEXT} has no Ready, schedulable worker`);
    const s = spec({ name: PAUSED, context: CONTEXT, nodeNames: [{ name: worker.name, priority: 1 }] });
    await createRollout(admin, { ...initialState(s, resolvePlan(nodes, s)), phase: 'Paused' });
    csr = await csrFixture(sandbox().kubeconfig, CONTEXT, 'rokeys');
    await csr.clientCsr(`${csr.P}-pending`, csr.as(csr.REQ_A));
  });

  afterAll(async () => {
    cleanup();
    await Promise.all(opened.map((f) => f.stop()));
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await nova?.close();
    await makeClient(admin, CoreV1Api)
      .deleteNamespacedConfigMap({ name: configMapName(PAUSED), namespace: ROLLOUT_NAMESPACE })
      .catch(() => {});
    await csr?.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('each answers with the gate’s line, and no API server saw a change', async () => {
    const dangerous = dangerousKeys();
    expect(
      dangerous.filter((d) => !ROUTES[d]),
      'a dangerous key no route of this test presses',
    ).toEqual([]);

    const since = new Date(Date.now() - 1000);
    const kubeconfig = await ownUserKubeconfig(USER, dir);
    // Every context of the sandbox; and, for Day 2, the fleet the test installed (its fleet file).
    const plain = dashboard(openSession({ kubeconfig, readOnly: true }, { useFleetFile: false }));
    process.env.FLEETDECK_FLEET_FILE = nova.env.FLEETDECK_FLEET_FILE;
    const fleet = dashboard(openSession({ kubeconfig, readOnly: true }));
    for (const what of dangerous) {
      const route = ROUTES[what]!;
      if ('unreachable' in route) continue;
      const on = what.startsWith('Day 2') ? fleet : plain;
      // Each key from a dashboard just opened: what the one before left open in the store is closed.
      on.feeds.actions.approvals?.close();
      on.feeds.actions.rollouts?.wizard.close();
      on.feeds.actions.install?.close(1);
      // The sandbox is recognised by the folder it records its kubeconfigs in.
      if (route.offSandbox) delete process.env.FLEETDECK_SANDBOX_DIR;
      else process.env.FLEETDECK_SANDBOX_DIR = sandbox().dir;
      const screen = await renderApp(on.props, { columns: 100, rows: 30 });
      await route.go(screen);
      await screen.press(route.key);
      // The key's answer, on the line above the hints.
      await screen.waitFor(oneLine(`✗ ${route.words} and is refused with --read-only`), WAIT);
      cleanup();
    }
    const session = plain.session;

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

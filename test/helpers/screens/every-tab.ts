/**
 * A dashboard with every tab offered and filled: the Nova fleet of `novaFleet()`, a fleetdeck
 * rollout running and a Navarchos rollout, storage inventories, pending CSRs, a pod's log, the
 * install wizard's dependencies, this host's preflight and the Day 2 page's operations, all as
 * fakes that write into the store as the feeds do. For tests that visit every screen (sizes, symbols).
 */
import { workloadsActions } from './workloads.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { withWarnings } from '../../../src/kube/csr/index.js';
import { pendingCsr } from '../objects/csr.js';
import type { NavarchosState } from '../../../src/kube/navarchos/objects.js';
import { startLogsFeed } from '../../../src/feeds/logs.js';
import { startPrepareFeed } from '../../../src/feeds/prepare.js';
import { startStorageFeed } from '../../../src/feeds/storage/start.js';
import type { RolloutDryRun } from '../../../src/rollout/runner/dry-run.js';
import type { NodeStatus, PlanNode, RolloutState } from '../../../src/rollout/types.js';
import type { AppProps } from '../../../src/screens/app.js';
import { type InstallWork, startInstallFeed } from '../../../src/feeds/install/feed.js';
import type { Actions as AppActions } from '../../../src/store/actions.js';
import type { Session } from '../../../src/session/session.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import type { ClusterStorage, NodeStorage } from '../../../src/storage/inventory.js';
import { approvalsOpened, csrsChanged, decisionDone } from '../../../src/store/approvals.js';
import { updateSlice, type FleetStore } from '../../../src/store/fleet-store.js';
import { gatedSession } from './install.js';
import { fakeDay2Feed } from '../feeds/day2.js';
import { cannedLogsWork } from '../feeds/log-work.js';
import { fakeRolloutsFeed } from '../feeds/rollouts-feed.js';
import { novaFleet } from './fleets.js';
import { type AppOverrides, appProps } from './screen.js';

const MIN = 60_000;
const GB = 1024 ** 3;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

function rolloutNode(name: string, priority: number, over: Partial<NodeStatus> = {}): NodeStatus {
  return { name, priority, phase: 'waiting', total: 0, evicted: 0, ignored: 0, failed: 0, cordonedByUs: false, ...over };
}

/** Eight nodes: two done, one draining behind a PodDisruptionBudget, five waiting. */
function runningRollout(): RolloutState {
  return {
    spec: {
      name: 'rollout-20261122-0530',
      context: 'kind-workload-1',
      nodeSelectors: [{ selector: 'role=worker', priority: 10 }],
      nodeNames: [],
      maxUnavailable: 1,
      replace: 'wait',
      drain: { force: false, deleteEmptyDirData: false, timeoutMs: 15 * MIN },
      health: { passes: 3, intervalMs: 5_000, timeoutMs: 10 * MIN },
    },
    phase: 'Running',
    nodes: [
      rolloutNode('w1-a', 20, { phase: 'done', total: 5, evicted: 3, ignored: 2, startedAt: iso(10 * MIN), completedAt: iso(8 * MIN) }),
      rolloutNode('w1-b', 20, { phase: 'done', total: 5, evicted: 3, ignored: 2, startedAt: iso(8 * MIN), completedAt: iso(6 * MIN) }),
      rolloutNode('w1-c', 10, {
        phase: 'draining',
        total: 7,
        evicted: 1,
        ignored: 2,
        startedAt: iso(MIN),
        blockingPdb: { namespace: 'default', name: 'web', disruptionsAllowed: 0 },
      }),
      ...['d', 'e', 'f', 'g', 'h'].map((x) => rolloutNode(`w1-${x}`, 10)),
    ],
    log: [
      { time: iso(11 * MIN), message: 'created: 8 nodes, 1 at a time, replace by wait' },
      { time: iso(30_000), message: 'w1-c: eviction blocked by PodDisruptionBudget default/web (0 disruptions allowed)' },
    ],
    updatedAt: iso(1_000),
    // Written before the Lease: its heartbeat says who runs it.
    owner: { host: 'bastion', pid: 4242, heartbeat: iso(3_000) },
  };
}

function navarchos(): NavarchosState {
  return {
    installed: true,
    synced: true,
    rollouts: [
      {
        name: 'rollout-x7k2p',
        phase: 'InProgress',
        targets: [{ kind: 'selector', target: 'kubernetes.io/role=master', priority: 20 }],
        priorities: [20],
        replacementsCreated: 1,
        replacementsCompleted: 0,
        createdAt: iso(20 * MIN),
      },
    ],
    replacements: [
      {
        name: 'cp-a-x',
        nodeName: 'cp-a',
        priority: 20,
        phase: 'InProgress',
        rollout: 'rollout-x7k2p',
        nodePods: 7,
        evictedPods: 3,
        ignoredPods: 2,
        failedPods: 1,
        failed: [{ name: 'web-1', reason: "Cannot evict pod as it would violate the pod's disruption budget." }],
        createdAt: iso(20 * MIN),
      },
    ],
  };
}

const PLAN_NODES: PlanNode[] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x, i) => ({
  name: `w1-${x}`,
  labels: { role: 'worker', 'topology.kubernetes.io/zone': `zone-${'abc'[i % 3]}` },
  unschedulable: false,
  ready: true,
}));

/** The real rollouts feed: a fleetdeck rollout running in kind-workload-1, Navarchos at work in kind-cp. */
function rolloutActions(store: FleetStore): NonNullable<AppActions['rollouts']> {
  const dryRun = (nodes: string[]): RolloutDryRun => ({
    drain: {
      evictionVersion: 'policy/v1',
      nodes: nodes.map((n) => ({
        node: n,
        pods: [
          {
            namespace: 'default',
            name: `${n}-web`,
            uid: `uid-${n}`,
            action: 'evict',
            reason: 'evict',
            requests: { cpuMilli: 100, memoryBytes: 1 << 20 },
          },
        ],
      })),
      room: { fits: true, detail: 'fits' },
    },
    room: [{ priority: 10, nodes, fits: true, detail: 'fits on 2 schedulable Ready nodes: CPU 800m of 3 free' }],
  });
  const { actions } = fakeRolloutsFeed(store, {
    rollouts: { 'kind-workload-1': [runningRollout()] },
    navarchos: { 'kind-cp': navarchos() },
    nodes: PLAN_NODES,
    dryRun,
  });
  // Shown before any test looks: the tab is filled when first opened.
  actions.show();
  return actions;
}

function storageNode(name: string): NodeStorage {
  return {
    node: name,
    ephemeralBytes: 50 * GB,
    volumeGroups: [
      { name: 'vg_data', sizeBytes: 93 * GB, freeBytes: 87 * GB, pvs: ['/dev/sdb1'] },
      { name: 'vg_share', sizeBytes: 107 * GB, freeBytes: 0, pvs: ['/dev/sdb2'] },
    ],
    disks: [
      {
        path: '/dev/sdb',
        sizeBytes: 200 * GB,
        partitions: [
          { path: '/dev/sdb1', sizeBytes: 93 * GB, volumeGroup: 'vg_data' },
          { path: '/dev/sdb2', sizeBytes: 107 * GB, volumeGroup: 'vg_share' },
        ],
      },
    ],
  };
}

/** The storage feed over fake readers: every context has three nodes like the seed's host; the example catalogue. */
function storageActions(store: FleetStore): NonNullable<AppActions['storage']> {
  updateSlice(store, 'storage', (s) => ({ ...s, status: 'on' }));
  const inventory = async (): Promise<ClusterStorage> => ({
    source: 'cluster',
    nodes: ['node-a', 'node-b', 'node-c'].map(storageNode),
    storageClasses: [{ name: 'openebs-lvmpv', provisioner: 'local.csi.openebs.io', default: false }],
    volumes: [],
    claims: [],
    missing: ['BlockDevice (openebs.io) not installed'],
  });
  return { show: () => {}, ...startStorageFeed(store, { inventory, catalogue: () => loadCatalogue(EXAMPLE_CATALOGUE_FILE) }) };
}

/** How the API server refuses an approval to a user without the permission (after the CSR's name). */
export const FORBIDDEN_APPROVAL =
  'not approved: HTTP 403: certificatesigningrequests.certificates.k8s.io "csr-aaa11" is forbidden: User "system:serviceaccount:ops:readonly-bastion-operator" cannot update resource "certificatesigningrequests/approval" in API group "certificates.k8s.io" at the cluster scope';

/** Approvals: three pending requests (two claim one node); approving answers with `answer`. */
export function approvalActions(store: FleetStore, answer: (name: string) => string = (n) => `${n}: approved`) {
  updateSlice(store, 'approvals', (s) => ({ ...s, status: 'on' }));
  const list = withWarnings([
    pendingCsr('csr-aaa11', 'system:bootstrap:abc123', 'w1-new', 5),
    pendingCsr('csr-bbb22', 'system:bootstrap:zzz999', 'w1-new', 2),
    pendingCsr('csr-ccc33', 'system:bootstrap:def456', 'w2-new', 1),
  ]);
  const decide = (name: string) => queueMicrotask(() => updateSlice(store, 'approvals', (s) => decisionDone(s, answer(name))));
  const actions: NonNullable<AppActions['approvals']> = {
    open: (context) => {
      updateSlice(store, 'approvals', (s) => approvalsOpened(s, context));
      queueMicrotask(() => updateSlice(store, 'approvals', (s) => csrsChanged(s, context, list)));
    },
    close: () => updateSlice(store, 'approvals', (s) => ({ status: s.status })),
    approve: decide,
    deny: decide,
  };
  return actions;
}

const check = (id: string, label: string, state: CheckItem['state'], detail: string, hint?: string): CheckItem => ({
  id,
  label,
  state,
  detail,
  ...(hint ? { hint } : {}),
});

const CHECKS: CheckItem[] = [
  check('reach', 'Hosting cluster reachable', 'ok', 'kind-cp answers (4 ms)'),
  check('version', 'Kubernetes version', 'warn', 'v1.20.2', 'supported: 1.25–1.31; the install may work, it is not tested there'),
  check('lb', 'LoadBalancer Services get an address', 'ok', 'MetalLB answers in 2 s'),
  check('storage', 'A default StorageClass', 'ok', 'standard (rancher.io/local-path)'),
  check('rbac', 'Permissions to install', 'ok', 'cluster-admin'),
  check('ns', 'Namespace elotl', 'ok', 'not there yet: it is created'),
  check('agents', 'Workload clusters reachable', 'ok', '2 of 2'),
];

const INSTALL_STEPS: CheckItem[] = [
  'Namespace',
  'API server LoadBalancer',
  'Certificates',
  'etcd',
  'API server',
  'Controller manager',
  'Scheduler',
  'Kubeconfig',
  'CRDs',
  'Agent in kind-workload-1',
  'Agent in kind-workload-2',
  'Verification',
].map((label, i) => check(`step-${i}`, label, i < 3 ? 'ok' : i === 3 ? 'running' : 'pending', i < 3 ? 'done' : ''));

/** The wizard's workflows: the checks answer at once; the install stays on its fourth step. */
export function installerWork(contexts: string[]): InstallWork {
  return {
    setup: () => ({ contexts, kubeconfigPath: '/home/ops/.config/fleetdeck/nova.kubeconfig', userKubeconfig: '/home/ops/.kube/config' }),
    plan: () => ({ name: 'fleetdeck reference bundle', source: 'built-in', reference: true, images: [], overlays: [], notSandbox: [] }),
    checks: async () => ({ items: CHECKS, blocking: false, warnings: true }),
    install: (_choices, onProgress) => {
      onProgress(INSTALL_STEPS);
      return new Promise(() => {});
    },
  };
}

const PREFLIGHT: CheckItem[] = [
  check('os', 'Operating system supported', 'ok', 'Ubuntu 24.04 LTS'),
  check('dns', 'DNS port 53', 'warn', 'in use by systemd-resolve (pid 512) on udp 127.0.0.53:53', 'only on loopback: fine'),
  check('swap', 'Swap off', 'fail', 'on: /swap.img', 'swapoff -a and remove it from /etc/fstab'),
  ...['CPUs (at least 2)', 'Memory (at least 2 GiB)', 'Disk space', 'Kernel modules', 'Container runtime', 'Ports free', 'Time synced'].map(
    (label, i) => check(`ok-${i}`, label, 'ok', 'fine'),
  ),
];

/** The dashboard's props with every tab's actions; `over` replaces some. */
export function everyTab(over: AppOverrides = {}, approvalAnswer?: (name: string) => string): AppProps {
  const store = novaFleet();
  const order = store.getState().status.order;
  const actions: AppActions = {
    install: startInstallFeed(store, gatedSession(false), { work: () => installerWork([...order]) }),
    prepare: startPrepareFeed(
      store,
      () => ({}) as Session,
      async () => PREFLIGHT,
    ),
    rollouts: rolloutActions(store),
    storage: storageActions(store),
    workloads: workloadsActions(store),
    // A pod's log: forty lines, longer than the view, then quiet while followed.
    logs: startLogsFeed(store, cannedLogsWork({ lines: (_o, pod) => Array.from({ length: 40 }, (_, i) => `${pod}: line ${i + 1}`) }).work, {
      flushMs: 5,
    }),
    approvals: approvalActions(store, approvalAnswer),
    day2: fakeDay2Feed(store),
  };
  return appProps(store, { actions, ...over });
}

import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_SIZE } from '../../src/screens/min-size.js';
import { everyTab } from '../helpers/screens/every-tab.js';
import { type FrameCheck, KEYS, renderApp } from '../helpers/screens/screen.js';

afterEach(() => cleanup());

/** One screen of the dashboard: the keys that lead there from the start, each group once the frame shows what it waits for. */
interface Visit {
  name: string;
  steps: [keys: string[], shows: FrameCheck][];
  /** The key hints (or the page's own key line) at the bottom. */
  hints: RegExp;
  /** Started with --read-only (some pages say so on a line of their own). */
  readOnly?: boolean;
}

const TAB_BAR = /1 Status.*2 Install.*3 Rollouts.*4 Storage.*5 Workloads/;

const VISITS: Visit[] = [
  { name: 'Status: contexts', steps: [[[], 'nova']], hints: /\? help · q quit/ },
  { name: 'Status: fleet checklist', steps: [[['f'], 'Checking status of Nova Control Plane Components']], hints: /\? help · q quit/ },
  { name: 'Status: a context’s info', steps: [[[KEYS.enter], 'Checks']], hints: /esc back/ },
  { name: 'Status: a context’s nodes', steps: [[[KEYS.enter, 'n'], 'KUBELET']], hints: /esc back/ },
  { name: 'Status: a context’s pods', steps: [[[KEYS.enter, 'p'], 'nova-scheduler']], hints: /esc back/ },
  { name: 'Status: a pod in full', steps: [[[KEYS.enter, 'p', 'G', KEYS.enter], 'Unschedulable']], hints: /esc/ },
  { name: 'Status: a context’s events', steps: [[[KEYS.enter, 'e'], 'LAST SEEN']], hints: /esc back/ },
  { name: 'Logs: a pod’s log', steps: [[[KEYS.enter, 'p', 'l'], 'line 40']], hints: /esc back/ },
  {
    name: 'Logs: a search typed',
    steps: [
      [[KEYS.enter, 'p', 'l'], 'line 40'],
      [['/', '1', '2'], '/12'],
    ],
    hints: /enter search/,
  },
  { name: 'Logs: help', steps: [[[KEYS.enter, 'p', 'l', '?'], 'Log lines']], hints: /esc|\?/ },
  { name: 'Status: help', steps: [[['?'], 'Everywhere']], hints: /esc|\?/ },
  { name: 'Approvals', steps: [[['j', 'j', 'A'], '3 pending']], hints: /y approve/ },
  {
    name: 'Approvals: asking',
    steps: [
      [['j', 'j', 'A'], '3 pending'],
      [['y'], 'y/n'],
    ],
    hints: /y yes|n\/esc/,
  },
  { name: 'Install', steps: [[['2'], 'Press enter to start the install wizard']], hints: /enter install wizard/ },
  {
    name: 'Install (read-only)',
    // The screen's last line: the Install tab's keys stay whole whatever gives way above them.
    steps: [[['2'], 'before it joins']],
    hints: /enter install wizard/,
    readOnly: true,
  },
  { name: 'Prepare nodes (read-only)', steps: [[['2', 'p'], 'cluster']], hints: /p run again/, readOnly: true },
  { name: 'Install: help', steps: [[['2', '?'], 'Everywhere']], hints: /esc|\?/ },
  { name: 'Prepare nodes', steps: [[['2', 'p'], 'failure']], hints: /esc/ },
  { name: 'Day 2', steps: [[['2', 'd'], 'Renew certificates']], hints: /esc back|q quit/ },
  {
    name: 'Day 2: a file asked for',
    steps: [
      [['2', 'd'], 'Renew certificates'],
      [[KEYS.down, KEYS.enter], '/backups/restore.yaml'],
    ],
    hints: /esc cancel/,
  },
  {
    name: 'Day 2: help',
    steps: [
      [['2', 'd'], 'Renew certificates'],
      [['?'], 'confirm: run it'],
    ],
    hints: /esc|\?/,
  },
  { name: 'Install wizard: hosting', steps: [[['2', KEYS.enter], 'Hosting cluster']], hints: /enter select/ },
  {
    name: 'Install wizard: workloads',
    steps: [
      [['2', KEYS.enter], 'Hosting cluster'],
      [[KEYS.enter], 'Namespace of the control plane'],
      [[KEYS.enter], 'Workload clusters'],
    ],
    hints: /space select/,
  },
  {
    name: 'Install wizard: checks',
    steps: [
      [['2', KEYS.enter], 'Hosting cluster'],
      [[KEYS.enter], 'Namespace of the control plane'],
      [[KEYS.enter], 'Workload clusters'],
      [[' ', KEYS.enter], 'Cluster name'],
      [[KEYS.enter], 'High availability'],
      [[KEYS.enter], 'Topology key'],
      [[KEYS.enter], 'Certificate validity'],
      [[KEYS.enter], 'Workload clusters reachable'],
    ],
    hints: /enter continue/,
  },
  {
    name: 'Install wizard: plan and progress',
    steps: [
      [['2', KEYS.enter], 'Hosting cluster'],
      [[KEYS.enter], 'Namespace of the control plane'],
      [[KEYS.enter], 'Workload clusters'],
      [[' ', KEYS.enter], 'Cluster name'],
      [[KEYS.enter], 'High availability'],
      [[KEYS.enter], 'Topology key'],
      [[KEYS.enter], 'Certificate validity'],
      [[KEYS.enter], 'Workload clusters reachable'],
      [[KEYS.enter], 'Press enter to install'],
      [[KEYS.enter], 'Controller manager'],
    ],
    hints: /ctrl-c stops/,
  },
  { name: 'Rollouts: list', steps: [[['3'], 'rollout-20261122-0530']], hints: /n new rollout/ },
  {
    name: 'Rollouts: progress',
    steps: [
      [['3'], 'rollout-20261122-0530'],
      [[KEYS.down, KEYS.enter], 'rollout-20261122-0530 · kind-workload-1'],
    ],
    hints: /esc back/,
  },
  {
    name: 'Rollouts: abort?',
    steps: [
      [['3'], 'rollout-20261122-0530'],
      [[KEYS.down, KEYS.enter, 'a'], 'y/n'],
    ],
    hints: /y|n/,
  },
  {
    name: 'Rollouts: Navarchos progress',
    steps: [
      [['3'], 'rollout-x7k2p'],
      [[KEYS.enter], 'cp-a'],
    ],
    hints: /esc back/,
  },
  { name: 'Rollouts: help', steps: [[['3', '?'], 'new rollout']], hints: /esc|\?/ },
  {
    name: 'New rollout: context',
    steps: [
      [['3'], 'rollout-20261122-0530'],
      [['n'], '1/6 Context'],
    ],
    hints: /esc cancel/,
  },
  {
    name: 'New rollout: selector',
    steps: [
      [['3'], 'rollout-20261122-0530'],
      [['n'], '1/6 Context'],
      [[KEYS.down, KEYS.down, KEYS.enter], 'Nodes by label selector · kind-workload-1'],
      [[...'role=worker'], 'matches 8 of 8'],
    ],
    hints: /enter add it/,
  },
  {
    name: 'New rollout: nodes, options, plan',
    steps: [
      [['3'], 'rollout-20261122-0530'],
      [['n'], '1/6 Context'],
      [[KEYS.down, KEYS.down, KEYS.enter], 'Nodes by label selector · kind-workload-1'],
      [[KEYS.enter], 'Nodes by name'],
      [[' ', KEYS.down, ' ', KEYS.enter], 'Priority of each node'],
      [[KEYS.enter], 'How each node is replaced'],
      [[KEYS.enter], 'Press enter to start'],
    ],
    hints: /j\/k scroll/,
  },
  { name: 'Storage: inventory', steps: [[['4'], 'vg_data']], hints: /enter estimate/ },
  { name: 'Storage: help', steps: [[['4', '?'], 'Everywhere']], hints: /esc|\?/ },
  {
    name: 'Storage estimate: features',
    steps: [
      [['4'], 'vg_data'],
      [[KEYS.enter], '1/3 Features'],
    ],
    hints: /esc/,
  },
  { name: 'Workloads: list', steps: [[['5'], 'deployment/web']], hints: /enter explain/ },
  {
    name: 'Workloads: a filter typed',
    steps: [
      [['5'], 'deployment/web'],
      [['/', 'w', 'e'], '1 of 3'],
    ],
    hints: /type/,
  },
  {
    name: 'Workloads: placement checklist',
    steps: [
      [['5'], 'deployment/web'],
      [[KEYS.enter], 'Not scheduled'],
    ],
    hints: /esc back/,
  },
  { name: 'Workloads: help', steps: [[['5', '?'], 'Everywhere']], hints: /esc|\?/ },
  {
    name: 'Storage estimate: sizes',
    steps: [
      [['4'], 'vg_data'],
      [[KEYS.enter], '1/3 Features'],
      [[KEYS.enter], '2/3 Pools'],
      [[KEYS.enter], '3/3 Sizes'],
    ],
    hints: /esc/,
  },
];

/** No line as wide as the terminal, fewer lines than it has, the tab bar on top and the key hints at the bottom. */
function expectClean(frame: string, columns: number, rows: number, hints: RegExp): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThan(columns);
  expect(lines.length, frame).toBeLessThan(rows);
  expect(lines[0], frame).toMatch(TAB_BAR);
  // The hints may take two lines (a wizard's key line wraps in a narrow terminal).
  const bottom = lines
    .filter((l) => l.trim() !== '')
    .slice(-2)
    .join(' ');
  expect(bottom, frame).toMatch(hints);
}

/** The frame of the screen `v` leads to, in a terminal of that size. */
async function visit(v: Visit, columns: number, rows: number): Promise<string> {
  const screen = await renderApp(everyTab(v.readOnly ? { ui: { readOnly: true, ascii: false, color: false } } : {}), { columns, rows });
  await screen.waitFor('kind-cp');
  let frame = '';
  for (const [keys, shows] of v.steps) {
    await screen.press(...keys);
    frame = await screen.waitFor(shows);
  }
  return frame;
}

describe.each([
  [MIN_SIZE.columns, MIN_SIZE.rows],
  [60, 16],
  [80, 24],
])('at %i×%i every screen lays out cleanly', (columns, rows) => {
  it.each(VISITS.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    expectClean(await visit(v, columns, rows), columns, rows, v.hints);
  });
});

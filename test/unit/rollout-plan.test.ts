import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { UsageError } from '../../src/errors.js';
import { nodeRolloutObject, parseNodeRollout } from '../../src/rollout/noderollout.js';
import {
  appendLog,
  batches,
  etaMs,
  gateCount,
  generatedName,
  healthVerdict,
  initialState,
  liveOwner,
  nextBatch,
  nodeDetail,
  nodesToUncordon,
  parseSelector,
  replacementVerdict,
  resolvePlan,
  resumedState,
  rolloutChanges,
  rolloutChecklist,
  rolloutNameError,
  selectorMatches,
  selectorString,
  type ReplacementNode,
} from '../../src/rollout/plan.js';
import { LOG_LINES, type NodePhase, type PlanNode, type RolloutSpec, type RolloutState } from '../../src/rollout/types.js';
import { changePrinter, changeText, specFromOptions } from '../../src/commands/rollout.js';

const ROLE = 'kubernetes.io/role';

function node(name: string, labels: Record<string, string> = {}, over: Partial<PlanNode> = {}): PlanNode {
  return { name, labels, unschedulable: false, ready: true, ...over };
}

function spec(over: Partial<RolloutSpec> = {}): RolloutSpec {
  return {
    name: 'r1',
    context: 'kind-workload-1',
    nodeSelectors: [],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'uncordon',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 900_000 },
    health: { passes: 3, intervalMs: 5_000, timeoutMs: 600_000 },
    ...over,
  };
}

/** The Navarchos README cluster: 2 masters, 4 workers. */
const CLUSTER: PlanNode[] = [
  node('w-1', { [ROLE]: 'worker', zone: 'a' }),
  node('m-1', { [ROLE]: 'master', zone: 'a' }),
  node('w-2', { [ROLE]: 'worker', zone: 'b' }),
  node('m-2', { [ROLE]: 'master', zone: 'b' }),
  node('w-3', { [ROLE]: 'worker', zone: 'c' }),
  node('w-4', { [ROLE]: 'worker', zone: 'c', gpu: '' }),
];

const usage = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError');
};

describe('label selectors in kubectl syntax', () => {
  it('parses every form kubectl accepts', () => {
    expect(parseSelector('a=b,c!=d, e in (x, y),!f,g')).toEqual([
      { key: 'a', operator: 'In', values: ['b'] },
      { key: 'c', operator: 'NotIn', values: ['d'] },
      { key: 'e', operator: 'In', values: ['x', 'y'] },
      { key: 'f', operator: 'DoesNotExist', values: [] },
      { key: 'g', operator: 'Exists', values: [] },
    ]);
    expect(parseSelector('kubernetes.io/role==master')).toEqual([{ key: 'kubernetes.io/role', operator: 'In', values: ['master'] }]);
    expect(parseSelector('tier notin (web,db)')).toEqual([{ key: 'tier', operator: 'NotIn', values: ['web', 'db'] }]);
    expect(parseSelector('size>3,size<10')).toEqual([
      { key: 'size', operator: 'Gt', values: ['3'] },
      { key: 'size', operator: 'Lt', values: ['10'] },
    ]);
    expect(parseSelector('a=')).toEqual([{ key: 'a', operator: 'In', values: [''] }]);
    expect(parseSelector('node-role.kubernetes.io/worker')).toEqual([{ key: 'node-role.kubernetes.io/worker', operator: 'Exists', values: [] }]);
    expect(parseSelector('')).toEqual([]);
    expect(parseSelector('  ')).toEqual([]);
  });

  it('refuses malformed selectors with one line naming the selector, the column and what was expected', () => {
    const cases: [string, RegExp][] = [
      ['a in (x', /invalid selector "a in \(x": expected "," or "\)" after the value, found the end \(at column 8\)/],
      ['a in x', /expected "\(" after "in", found "x"/],
      ['a in ()', /"in" needs at least one value/],
      ['a=b,', /expected a requirement after ","/],
      [',a', /expected a label key, found ","/],
      ['a b', /expected "=", "==", "!=", "in", "notin", "<", ">", "," or the end after "a", found "b"/],
      ['a=b=c', /expected "," or the end, found "="/],
      ['a>x', /">" needs a whole number, found "x"/],
      ['-a=b', /label key "-a"/],
      ['a=-b', /label value "-b"/],
      ['Example.com/a=b', /prefix "Example.com" is not a DNS subdomain/],
      [`a=${'x'.repeat(64)}`, /longer than 63 characters/],
      ['!', /expected a label key, found the end/],
    ];
    for (const [sel, re] of cases) {
      const err = usage(() => parseSelector(sel));
      expect(err.message, sel).toMatch(re);
      expect(err.message, sel).toContain(`invalid selector "${sel}"`);
      expect(err.message.split('\n')).toHaveLength(1);
    }
  });

  it('matches as kubectl does: != and notin also match nodes without the label', () => {
    const labels = { [ROLE]: 'worker', zone: 'a', size: '4' };
    const m = (sel: string, l: Record<string, string> = labels) => selectorMatches(parseSelector(sel), l);
    expect(m(`${ROLE}=worker`)).toBe(true);
    expect(m(`${ROLE}=master`)).toBe(false);
    expect(m('team!=x')).toBe(true);
    expect(m('zone notin (b,c)')).toBe(true);
    expect(m('zone notin (a)')).toBe(false);
    expect(m('zone in (a,b),!gpu')).toBe(true);
    expect(m('gpu')).toBe(false);
    expect(m('size>3,size<5')).toBe(true);
    expect(m('size>4')).toBe(false);
    expect(m('zone>1')).toBe(false); // not a number
    expect(m('')).toBe(true);
  });

  it('turns a metav1.LabelSelector into a selector string that parses back to the same meaning', () => {
    const sel = {
      matchLabels: { [ROLE]: 'worker' },
      matchExpressions: [
        { key: 'zone', operator: 'In', values: ['a', 'b'] },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'gpu', operator: 'DoesNotExist' },
        { key: 'ssd', operator: 'Exists' },
      ],
    };
    const s = selectorString(sel);
    expect(s).toBe(`${ROLE}=worker,zone in (a,b),tier notin (db),!gpu,ssd`);
    const cases: Record<string, string>[] = [{ [ROLE]: 'worker', zone: 'a', ssd: '' }, { [ROLE]: 'worker', zone: 'c', ssd: '' }, { [ROLE]: 'worker', zone: 'a', ssd: '', gpu: '1' }];
    for (const labels of cases) {
      const expected = labels.zone !== 'c' && !('gpu' in labels);
      expect(selectorMatches(parseSelector(s), labels)).toBe(expected);
    }
    expect(() => selectorString({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow(/operator "Gt"/);
    expect(() => selectorString({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(/needs at least one value/);
  });
});

describe('resolvePlan: Navarchos priority rules', () => {
  it('orders the README example: masters (20) before workers (10), ties by name', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=master`, priority: 20 },
        { selector: `${ROLE}=worker`, priority: 10 },
      ],
      nodeNames: [],
    });
    expect(plan.nodes.map((n) => [n.name, n.priority])).toEqual([
      ['m-1', 20],
      ['m-2', 20],
      ['w-1', 10],
      ['w-2', 10],
      ['w-3', 10],
      ['w-4', 10],
    ]);
    expect(plan.nodes[0]!.source).toBe(`selector "${ROLE}=master"`);
    expect(plan.warnings).toEqual([]);
  });

  it('when several selectors match a node the highest priority wins; a name overrides selectors, even with a lower priority', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=worker`, priority: 10 },
        { selector: 'zone=c', priority: 30 },
        { selector: 'gpu', priority: 5 },
      ],
      nodeNames: [
        { name: 'w-4', priority: 1 },
        { name: 'm-1', priority: 15 },
      ],
    });
    const prio = Object.fromEntries(plan.nodes.map((n) => [n.name, n.priority]));
    expect(prio).toEqual({ 'w-3': 30, 'm-1': 15, 'w-1': 10, 'w-2': 10, 'w-4': 1 });
    expect(plan.nodes.map((n) => n.name)).toEqual(['w-3', 'm-1', 'w-1', 'w-2', 'w-4']);
    expect(plan.nodes.find((n) => n.name === 'w-4')!.source).toBe('node w-4');
    expect(plan.nodes.find((n) => n.name === 'w-3')!.source).toBe('selector "zone=c"');
  });

  it('warns about a selector that matches nothing, and refuses unknown names, conflicting names, bad selectors and empty plans', () => {
    const plan = resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone=z', priority: 1 }], nodeNames: [{ name: 'w-1', priority: 0 }] });
    expect(plan.warnings).toEqual(['selector "zone=z" matches no node']);
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [], nodeNames: [{ name: 'nope', priority: 1 }] })).message).toMatch(/node "nope" is not a node of the cluster/);
    expect(
      usage(() =>
        resolvePlan(CLUSTER, {
          nodeSelectors: [],
          nodeNames: [
            { name: 'w-1', priority: 1 },
            { name: 'w-1', priority: 2 },
          ],
        }),
      ).message,
    ).toMatch(/node "w-1" is given twice, with priorities 1 and 2/);
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone in (a', priority: 1 }], nodeNames: [] })).message).toMatch(/invalid selector "zone in \(a"/);
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone=z', priority: 1 }], nodeNames: [] })).message).toMatch(/selects no node/);
  });

  it('batches never mix priorities and hold at most maxUnavailable nodes', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=master`, priority: 20 },
        { selector: `${ROLE}=worker`, priority: 10 },
      ],
      nodeNames: [],
    });
    expect(batches(plan.nodes, 3).map((b) => b.map((n) => n.name))).toEqual([['m-1', 'm-2'], ['w-1', 'w-2', 'w-3'], ['w-4']]);
    expect(batches(plan.nodes, 1)).toHaveLength(6);
  });

  it('checks rollout names and generates one from the time', () => {
    expect(rolloutNameError('rollout-20261122-0530')).toBeUndefined();
    expect(rolloutNameError('Bad_Name')).toMatch(/lower-case/);
    expect(rolloutNameError('x'.repeat(64))).toMatch(/longer than 63/);
    expect(generatedName(new Date(2026, 10, 22, 5, 30))).toBe('rollout-20261122-0530');
  });
});

/** A state with the README plan; `phases` overrides nodes' phases by name. */
function state(over: Partial<RolloutSpec> = {}, phases: Record<string, NodePhase> = {}): RolloutState {
  const s = spec({
    nodeSelectors: [
      { selector: `${ROLE}=master`, priority: 20 },
      { selector: `${ROLE}=worker`, priority: 10 },
    ],
    ...over,
  });
  const st = initialState(s, resolvePlan(CLUSTER, s), new Date('2026-01-01T00:00:00Z'));
  for (const n of st.nodes) if (phases[n.name]) n.phase = phases[n.name]!;
  return st;
}

describe('nextBatch: what runs next', () => {
  it('runs every batch of a higher priority to the end before a lower one starts', () => {
    for (const max of [1, 2, 3, 10]) {
      const st = state({ maxUnavailable: max });
      const order: string[][] = [];
      for (let step = nextBatch(st); step.kind === 'batch'; step = nextBatch(st)) {
        expect(step.nodes.length).toBeGreaterThan(0);
        expect(step.nodes.length).toBeLessThanOrEqual(max);
        // Every node of a higher priority is done before this batch.
        const higher = st.nodes.filter((n) => n.priority > step.priority);
        expect(higher.every((n) => n.phase === 'done')).toBe(true);
        order.push(step.nodes);
        for (const n of st.nodes) if (step.nodes.includes(n.name)) n.phase = 'done';
      }
      expect(order.flat()).toEqual(['m-1', 'm-2', 'w-1', 'w-2', 'w-3', 'w-4']);
      expect(nextBatch(st)).toEqual({ kind: 'complete' });
    }
  });

  it('re-enters an interrupted batch first: nodes under way, failed ones (retried) and those waiting for the gate', () => {
    const st = state({ maxUnavailable: 3 }, { 'm-1': 'done', 'm-2': 'done', 'w-1': 'draining', 'w-2': 'validating' });
    expect(nextBatch(st)).toEqual({ kind: 'batch', priority: 10, nodes: ['w-1', 'w-2'] });
    const failed = state({}, { 'm-1': 'failed' });
    expect(nextBatch(failed)).toEqual({ kind: 'batch', priority: 20, nodes: ['m-1'] });
    // A lower priority never starts while a higher node is failed.
    const stuck = state({ maxUnavailable: 5 }, { 'm-1': 'done', 'm-2': 'failed' });
    expect(nextBatch(stuck)).toEqual({ kind: 'batch', priority: 20, nodes: ['m-2'] });
  });

  it('resumedState retries failed nodes from their drain and clears the message', () => {
    const st = state({}, { 'm-1': 'failed' });
    st.nodes[0]!.error = 'drain timed out';
    st.nodes[0]!.blockingPdb = { namespace: 'a', name: 'b', disruptionsAllowed: 0 };
    st.phase = 'Paused';
    st.message = 'drain timed out';
    const r = resumedState(st);
    expect(r.nodes[0]).toMatchObject({ name: 'm-1', phase: 'cordoned' });
    expect(r.nodes[0]!.error).toBeUndefined();
    expect(r.nodes[0]!.blockingPdb).toBeUndefined();
    expect(r.message).toBeUndefined();
    expect(st.nodes[0]!.phase).toBe('failed'); // not mutated
  });

  it('abort gives back only the nodes the rollout cordoned and did not finish', () => {
    const st = state({}, { 'm-1': 'done', 'm-2': 'draining', 'w-1': 'cordoned', 'w-2': 'failed', 'w-3': 'replacing' });
    for (const n of st.nodes) n.cordonedByUs = n.name !== 'w-3';
    expect(nodesToUncordon(st)).toEqual(['m-2', 'w-1', 'w-2', 'w-4']);
  });
});

describe('etaMs', () => {
  it('is undefined until a node finished, then the mean duration times the batches left, less what the running batch spent', () => {
    const st = state({ maxUnavailable: 2 });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    expect(etaMs(st, t0)).toBeUndefined();
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    Object.assign(st.nodes[0]!, { phase: 'done', startedAt: at(0), completedAt: at(60) });
    Object.assign(st.nodes[1]!, { phase: 'done', startedAt: at(0), completedAt: at(120) });
    // Mean 90 s; workers: 4 waiting in batches of 2 → 2 batches.
    expect(etaMs(st, t0 + 120_000)).toBe(180_000);
    Object.assign(st.nodes[2]!, { phase: 'draining', startedAt: at(120) });
    Object.assign(st.nodes[3]!, { phase: 'cordoned', startedAt: at(120) });
    // 30 s into the running batch: 60 s left of it, then one more batch.
    expect(etaMs(st, t0 + 150_000)).toBe(60_000 + 90_000);
    for (const n of st.nodes) Object.assign(n, { phase: 'done', startedAt: at(0), completedAt: at(10) });
    expect(etaMs(st, t0)).toBe(0);
  });
});

describe('owner, log, gate and replacement decisions', () => {
  it('an owner is live while its heartbeat is younger than 30 s, and never oneself', () => {
    const st = state();
    const now = Date.parse('2026-01-01T00:01:00Z');
    st.owner = { host: 'h', pid: 1, heartbeat: new Date(now - 10_000).toISOString() };
    expect(liveOwner(st, now)).toEqual(st.owner);
    expect(liveOwner(st, now, { host: 'h', pid: 1 })).toBeUndefined();
    expect(liveOwner(st, now + 25_000)).toBeUndefined();
  });

  it('keeps the last LOG_LINES lines of the log', () => {
    const st = state();
    for (let i = 0; i < LOG_LINES + 10; i++) appendLog(st, `line ${i}`);
    expect(st.log).toHaveLength(LOG_LINES);
    expect(st.log.at(-1)!.message).toBe(`line ${LOG_LINES + 9}`);
  });

  it('the health gate: every node Ready and no Pending pod, counted in a row', () => {
    expect(healthVerdict([{ name: 'a', ready: true }], [])).toEqual({ ok: true, detail: '1 nodes Ready, no Pending pod' });
    const bad = healthVerdict(
      [
        { name: 'b', ready: false },
        { name: 'a', ready: true },
      ],
      ['ns/p2', 'ns/p1'],
    );
    expect(bad.ok).toBe(false);
    expect(bad.detail).toBe('1 node not Ready (b); 2 pods Pending (ns/p1, ns/p2)');
    let n = 0;
    for (const ok of [true, true, false, true, true, true]) n = gateCount(n, ok);
    expect(n).toBe(3);
  });

  it('wait mode: the old node must go (deleted or a new UID) and a new Ready node join', () => {
    const started = '2026-01-01T00:10:00Z';
    const old = { name: 'w-1', uid: 'u1', startedAt: started };
    const n = (name: string, uid: string, created: string, over: Partial<ReplacementNode> = {}): ReplacementNode => ({ name, uid, ready: true, unschedulable: false, created, ...over });
    const early = '2026-01-01T00:00:00Z';
    const late = '2026-01-01T00:12:00Z';
    const exclude = new Set(['w-1', 'w-2']);
    expect(replacementVerdict(old, [n('w-1', 'u1', early), n('w-9', 'u9', late)], exclude)).toMatchObject({ oldGone: false, detail: 'waiting for node w-1 to be deleted or replaced' });
    expect(replacementVerdict(old, [n('w-2', 'u2', late)], exclude)).toMatchObject({ oldGone: true, detail: 'node w-1 is gone; waiting for a new Ready node to join' });
    expect(replacementVerdict(old, [n('w-0', 'u0', early), n('w-9', 'u9', late, { ready: false })], exclude).replacement).toBeUndefined();
    expect(replacementVerdict(old, [n('w-0', 'u0', early), n('w-9', 'u9', late)], exclude)).toMatchObject({ oldGone: true, replacement: 'w-9', detail: 'replaced by w-9' });
    // The same name with a new UID is a replacement too.
    expect(replacementVerdict(old, [n('w-1', 'u1b', late)], exclude)).toMatchObject({ oldGone: true, replacement: 'w-1' });
    // With the server's time of the cordon: only nodes created after it (a young cluster's nodes are not replacements).
    const young = { ...old, startedAt: '2026-01-01T00:00:30Z', replaceAfter: '2026-01-01T00:00:20Z' };
    expect(replacementVerdict(young, [n('w-0', 'u0', '2026-01-01T00:00:05Z'), n('w-8', 'u8', '2026-01-01T00:00:20Z')], exclude).replacement).toBeUndefined();
    expect(replacementVerdict(young, [n('w-0', 'u0', '2026-01-01T00:00:05Z'), n('w-9', 'u9', '2026-01-01T00:00:21Z')], exclude).replacement).toBe('w-9');
  });
});

describe('what the lines show', () => {
  it('node rows carry phase, counts, the blocking PDB and the elapsed time', () => {
    const st = state();
    Object.assign(st.nodes[0]!, {
      phase: 'draining',
      total: 10,
      evicted: 3,
      ignored: 2,
      failed: 0,
      startedAt: '2026-01-01T00:00:00Z',
      blockingPdb: { namespace: 'shop', name: 'web-pdb', disruptionsAllowed: 0 },
    });
    expect(nodeDetail(st.nodes[0]!)).toBe('draining 5/10 pods · 3 evicted, 2 ignored, 0 failed · blocked by PodDisruptionBudget shop/web-pdb (0 disruptions allowed)');
    const rows = rolloutChecklist(st, Date.parse('2026-01-01T00:00:30Z'));
    expect(rows[0]).toMatchObject({ id: 'm-1', label: 'm-1 (priority 20)', state: 'warn', elapsedMs: 30_000 });
    expect(rows[1]).toMatchObject({ id: 'm-2', state: 'pending', detail: 'waiting' });
    Object.assign(st.nodes[1]!, { phase: 'done', replacement: 'm-7', evicted: 4, ignored: 1 });
    expect(nodeDetail(st.nodes[1]!)).toBe('done (replaced by m-7) · 4 evicted, 1 ignored, 0 failed');
  });

  it('rolloutChanges: a line per node whose shown fields changed, and one when the rollout phase changes', () => {
    const a = state();
    const first = rolloutChanges(undefined, a);
    expect(first.map((c) => c.kind)).toEqual(['rollout']); // waiting nodes are the plan, shown already
    const b = structuredClone(a);
    b.phase = 'Running';
    b.nodes[0]!.phase = 'cordoned';
    b.updatedAt = 'later';
    const second = rolloutChanges(a, b);
    expect(second.map((c) => (c.kind === 'node' ? c.node!.name : c.kind))).toEqual(['rollout', 'm-1']);
    const c = structuredClone(b);
    c.owner = { host: 'h', pid: 1, heartbeat: 'x' }; // a heartbeat is no change worth a line
    expect(rolloutChanges(b, c)).toEqual([]);
    const d = structuredClone(c);
    d.phase = 'Paused';
    d.nodes[0]!.phase = 'failed';
    // The rollout's last line comes after its nodes'.
    expect(rolloutChanges(c, d).map((x) => x.kind)).toEqual(['node', 'rollout']);
    const line = changeText(second[1]!, Date.parse('2026-01-01T12:00:00Z'), false, false);
    expect(line).toMatch(/^\d\d:\d\d:\d\d m-1 \(priority 20\): cordoned$/);
  });
});

describe('the line printer', () => {
  it('prints one JSON object per change with -o json, and text lines otherwise', () => {
    const lines: string[] = [];
    const json = changePrinter('json', false, { print: (l) => lines.push(l) });
    const a = state();
    json(a);
    const b = structuredClone(a);
    b.phase = 'Running';
    Object.assign(b.nodes[0]!, { phase: 'draining', total: 4, evicted: 1, blockingPdb: { namespace: 'shop', name: 'web', disruptionsAllowed: 0 } });
    json(b);
    json(structuredClone(b)); // nothing changed: nothing printed
    const objs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs.map((o) => o.kind)).toEqual(['rollout', 'rollout', 'node']);
    expect(objs[1]).toMatchObject({ rollout: 'r1', phase: 'Running', done: 0, total: 6, message: null });
    expect(objs[2]).toMatchObject({ rollout: 'r1', node: { name: 'm-1', phase: 'draining', total: 4, evicted: 1, blockingPdb: { name: 'web' } } });
    const text: string[] = [];
    const plain = changePrinter('text', true, { print: (l) => text.push(l), prefixName: true });
    plain(b);
    expect(text[1]).toMatch(/^\d\d:\d\d:\d\d r1 m-1 \(priority 20\): draining 1\/4 pods \. 1 evicted, 0 ignored, 0 failed \. blocked by PodDisruptionBudget shop\/web \(0 disruptions allowed\)$/);
  });
});

describe('Navarchos NodeRollout YAML', () => {
  const README = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  # A NodeReplacement will be created with a name 'rollout-<random-string>'
  generateName: "rollout-"
spec:
  nodeSelectors:
  - replacement:
      priority: 20
    matchLabels:
      "kubernetes.io/role": "master"
  - replacement:
      priority: 10
    matchLabels:
      "kubernetes.io/role": "worker"
`;

  it('reads the README example into selectors with priorities', () => {
    expect(parseNodeRollout(README, 'r.yaml')).toEqual({
      nodeSelectors: [
        { selector: 'kubernetes.io/role=master', priority: 20 },
        { selector: 'kubernetes.io/role=worker', priority: 10 },
      ],
      nodeNames: [],
    });
    const plan = resolvePlan(CLUSTER, parseNodeRollout(README));
    expect(plan.nodes.map((n) => n.name)).toEqual(['m-1', 'm-2', 'w-1', 'w-2', 'w-3', 'w-4']);
  });

  it('reads nodeNames, a flat priority, matchExpressions and metadata.name', () => {
    const yaml = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  name: rollout-6lwkc
spec:
  nodeNames:
  - replacement:
      priority: 20
    name: "node-1"
  - name: node-2
  nodeSelectors:
  - priority: 5
    matchExpressions:
    - key: zone
      operator: In
      values: [a, b]
    - key: gpu
      operator: DoesNotExist
`;
    expect(parseNodeRollout(yaml)).toEqual({
      name: 'rollout-6lwkc',
      nodeNames: [
        { name: 'node-1', priority: 20 },
        { name: 'node-2', priority: 0 },
      ],
      nodeSelectors: [{ selector: 'zone in (a,b),!gpu', priority: 5 }],
    });
  });

  it('errors are one line with the file and line number', () => {
    const bad = (text: string) => usage(() => parseNodeRollout(text, 'r.yaml')).message;
    expect(bad(README.replace('priority: 10', 'priority: high'))).toBe('r.yaml:13: spec.nodeSelectors[1].replacement.priority must be a whole number, not "high"');
    expect(bad(README.replace('"master"', 'true'))).toMatch(/^r\.yaml:11: spec\.nodeSelectors\[0\]\.matchLabels\["kubernetes\.io\/role"\] must be a string/);
    expect(bad(README.replace('kind: NodeRollout', 'kind: NodeReplacement'))).toBe('r.yaml:2: kind is "NodeReplacement", expected NodeRollout');
    expect(bad(README.replace('navarchos.pusher.com/v1alpha1', 'v1'))).toMatch(/^r\.yaml:1: apiVersion is "v1"/);
    expect(bad(README.replace('  - replacement:\n      priority: 10\n', '  - replacement:\n      priority: 10\n    matchName: x\n'))).toMatch(/^r\.yaml:14: spec\.nodeSelectors\[1\]\.matchName is not a field/);
    expect(bad(`${README}    - bad: [\n`)).toMatch(/^r\.yaml:\d+: invalid YAML/);
    expect(bad('apiVersion: navarchos.pusher.com/v1alpha1\nkind: NodeRollout\nspec: {}\n')).toBe('r.yaml:3: spec has no nodeSelectors and no nodeNames: it selects no node');
    expect(bad(`apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
spec:
  nodeSelectors:
  - matchExpressions:
    - key: zone
      operator: Near
`)).toMatch(/^r\.yaml:5: spec\.nodeSelectors\[0\]: matchExpressions: operator "Near"/);
    expect(bad(`${README}---\n${README}`)).toMatch(/^r\.yaml:16: more than one document/);
  });

  it('a rollout spec becomes a NodeRollout object that reads back the same', () => {
    const obj = nodeRolloutObject({
      nodeSelectors: [{ selector: 'kubernetes.io/role=master,zone notin (c)', priority: 20 }],
      nodeNames: [{ name: 'node-1', priority: 5 }],
    });
    expect(obj).toMatchObject({ apiVersion: 'navarchos.pusher.com/v1alpha1', kind: 'NodeRollout', metadata: { generateName: 'rollout-' } });
    const back = parseNodeRollout(stringify(obj));
    expect(back.nodeNames).toEqual([{ name: 'node-1', priority: 5 }]);
    const sel = parseSelector(back.nodeSelectors[0]!.selector);
    expect(selectorMatches(sel, { 'kubernetes.io/role': 'master', zone: 'a' })).toBe(true);
    expect(selectorMatches(sel, { 'kubernetes.io/role': 'master', zone: 'c' })).toBe(false);
  });
});

describe('the create flags', () => {
  it('pairs each --selector/--node with its --priority (default 0) and adds the file’s', () => {
    const s = specFromOptions(
      {
        targets: [
          { kind: 'selector', value: 'role=master', priority: 20 },
          { kind: 'selector', value: 'role=worker' },
          { kind: 'node', value: 'n-1', priority: 30 },
        ],
        maxUnavailable: 2,
        replace: 'uncordon',
        force: true,
        timeout: 60_000,
        healthPasses: 1,
      },
      'ctx',
      'r1',
      { nodeSelectors: [{ selector: 'zone=a', priority: 5 }], nodeNames: [] },
    );
    expect(s.nodeSelectors).toEqual([
      { selector: 'zone=a', priority: 5 },
      { selector: 'role=master', priority: 20 },
      { selector: 'role=worker', priority: 0 },
    ]);
    expect(s.nodeNames).toEqual([{ name: 'n-1', priority: 30 }]);
    expect(s).toMatchObject({ maxUnavailable: 2, replace: 'uncordon', drain: { force: true, deleteEmptyDirData: false, timeoutMs: 60_000 }, health: { passes: 1, intervalMs: 5_000, timeoutMs: 600_000 } });
    expect(usage(() => specFromOptions({}, 'ctx', 'r1')).message).toMatch(/needs nodes/);
    expect(usage(() => specFromOptions({ targets: [{ kind: 'selector', value: 'a in (' }] }, 'ctx', 'r1')).message).toMatch(/invalid selector "a in \("/);
    expect(specFromOptions({ targets: [{ kind: 'node', value: 'n' }] }, 'ctx', 'r1')).toMatchObject({ replace: 'wait', maxUnavailable: 1, drain: { timeoutMs: 900_000 } });
  });
});

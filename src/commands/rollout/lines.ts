/** What `fleetdeck rollout` prints: a line (or a JSON object) per change, the plan, the dry run, the result. */
import { toAscii } from '../../checklist/checklist.js';
import { formatDuration } from '../../duration.js';
import type { DrainAction, PodClassification } from '../../rollout/drain/filters.js';
import type { Plan } from '../../rollout/plan.js';
import type { RolloutDryRun } from '../../rollout/runner/dry-run.js';
import { ownerIdentity, type RolloutSpec, type RolloutState } from '../../rollout/types.js';
import { etaMs, nodeDetail, rolloutChanges, rolloutSummary, type RolloutChange } from '../../report/rollout/view.js';
import { guardLines } from '../../report/rollout/guards-text.js';
import { redactedSpec } from '../../rollout/guards/redact.js';
import { clock } from '../../store/selectors.js';
import { type OutputFormat, streamItem } from '../../output/format.js';

export const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const duration = (ms: number) => formatDuration(ms, 'span');
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

const ACTION_TEXT: Record<DrainAction, string> = {
  evict: 'evict',
  delete: 'delete (finished)',
  'ignored-daemonset': 'ignored (DaemonSet)',
  'skipped-mirror': 'skipped (mirror)',
  'needs-force': 'needs --force',
  'needs-delete-emptydir-data': 'needs --delete-emptydir-data',
  'blocked-pdb': 'blocked by PDB',
};

/** Prints what changed between the states it is given: one line per change (text) or one JSON object per line, or one YAML document. */
export function changePrinter(
  output: OutputFormat,
  ascii: boolean,
  opts: { prefixName?: boolean; print?: (line: string) => void } = {},
): (state: RolloutState) => void {
  const print = opts.print ?? write;
  const prev = new Map<string, RolloutState>();
  return (state) => {
    const name = state.spec.name;
    const changes = rolloutChanges(prev.get(name), state);
    prev.set(name, state);
    const now = Date.now();
    for (const c of changes)
      print(output !== 'text' ? streamItem(output, changeJson(c, now)) : changeText(c, now, ascii, opts.prefixName === true));
  };
}

/** "12:00:03 node-2 (priority 10): draining 3/10 pods · 3 evicted, 2 ignored, 0 failed · blocked by …". */
export function changeText(c: RolloutChange, now: number, ascii: boolean, prefixName: boolean): string {
  const prefix = prefixName ? `${c.state.spec.name} ` : '';
  const line =
    c.kind === 'node' && c.node
      ? `${clock(now)} ${prefix}${c.node.name} (priority ${c.node.priority}): ${nodeDetail(c.node, c.state.spec.replace, c.state)}`
      : `${clock(now)} ${prefix}rollout ${c.state.spec.name}: ${rolloutSummary(c.state, now)}`;
  return ascii ? toAscii(line) : line;
}

export function changeJson(c: RolloutChange, now: number): Record<string, unknown> {
  const time = new Date(now).toISOString();
  if (c.kind === 'node' && c.node) return { time, rollout: c.state.spec.name, kind: 'node', node: c.node };
  const done = c.state.nodes.filter((n) => n.phase === 'done').length;
  return {
    time,
    rollout: c.state.spec.name,
    kind: 'rollout',
    phase: c.state.phase,
    message: c.state.message ?? null,
    done,
    total: c.state.nodes.length,
    etaMs: c.state.phase === 'Running' ? (etaMs(c.state, now) ?? null) : null,
    hold: c.state.phase === 'Running' ? (c.state.hold ?? null) : null,
  };
}

export function planLines(spec: RolloutSpec, plan: Plan): string[] {
  const d = spec.drain;
  const h = spec.health;
  const out = [
    `Rollout ${spec.name} on ${spec.context}: ${plural(plan.nodes.length, 'node')}, ${spec.maxUnavailable} at a time, replacement: ${spec.replace}`,
    `  drain: timeout ${duration(d.timeoutMs)}${d.force ? ', --force' : ''}${d.deleteEmptyDirData ? ', --delete-emptydir-data' : ''}; health gate: ${plural(h.passes, 'pass', 'passes')} ${duration(h.intervalMs)} apart within ${duration(h.timeoutMs)}`,
    'Order (higher priorities finish before lower ones start):',
  ];
  const guards = guardLines(spec.guards);
  if (guards.length) out.splice(2, 0, ...guards.map((l) => `  ${l}`));
  plan.nodes.forEach((n, i) => {
    const flags = [n.ready ? '' : 'not Ready', n.unschedulable ? 'cordoned already' : ''].filter(Boolean).join(', ');
    out.push(`  ${String(i + 1).padStart(3)}. ${n.name}  priority ${n.priority}  (${n.source})${flags ? `  [${flags}]` : ''}`);
  });
  for (const w of plan.warnings) out.push(`  warning: ${w}`);
  return out;
}

/** The pods a batch's room check counted ("… 12 of 545 pod slots …"). */
const needPods = (r: { detail: string }) => Number(/(\d+) of \d+ pod slots/.exec(r.detail)?.[1] ?? 0);

function podReason(p: PodClassification): string {
  if (p.action === 'blocked-pdb' && p.pdb) return `${p.reason} (${p.pdb.namespace}/${p.pdb.name})`;
  return p.reason;
}

function roomLines(dry: RolloutDryRun): string[] {
  const out: string[] = [];
  const short = dry.room.filter((r) => !r.fits);
  for (const r of short) out.push(`  WARNING: room for batch ${r.nodes.join(', ')} (priority ${r.priority}): ${r.detail}`);
  if (short.length === 0 && dry.room.length) {
    const worst = dry.room.reduce((a, b) => (b.detail.length && needPods(b) > needPods(a) ? b : a));
    out.push(`  room: every batch fits on the other nodes; largest, ${worst.nodes.join(', ')}: ${worst.detail}`);
  }
  return out;
}

export function dryRunLines(dry: RolloutDryRun, plan: Plan): string[] {
  const out = ['Dry run (nothing is changed):'];
  const priorities = new Map(plan.nodes.map((n) => [n.name, n.priority]));
  for (const n of dry.drain.nodes) {
    const counts = new Map<string, number>();
    for (const p of n.pods) counts.set(ACTION_TEXT[p.action], (counts.get(ACTION_TEXT[p.action]) ?? 0) + 1);
    const summary = [...counts].map(([k, v]) => `${v} ${k}`).join(', ') || 'no pods';
    out.push(`  ${n.node} (priority ${priorities.get(n.node)}): ${summary}`);
    const width = Math.max(0, ...n.pods.map((p) => ACTION_TEXT[p.action].length));
    for (const p of n.pods) out.push(`    ${ACTION_TEXT[p.action].padEnd(width)}  ${p.namespace}/${p.name}: ${podReason(p)}`);
    if (n.refused) out.push(`    REFUSED: ${n.refused}`);
  }
  out.push(`  eviction API: ${dry.drain.evictionVersion}`);
  return [...out, ...roomLines(dry)];
}

export function dryRunJson(spec: RolloutSpec, plan: Plan, dry: RolloutDryRun): Record<string, unknown> {
  const byNode = new Map(dry.drain.nodes.map((n) => [n.node, n]));
  return {
    kind: 'plan',
    rollout: redactedSpec(spec),
    nodes: plan.nodes.map((n) => ({
      ...n,
      pods: (byNode.get(n.name)?.pods ?? []).map((p) => ({
        namespace: p.namespace,
        name: p.name,
        action: p.action,
        reason: p.reason,
        ...(p.pdb ? { pdb: p.pdb } : {}),
      })),
      refused: byNode.get(n.name)?.refused ?? null,
    })),
    evictionVersion: dry.drain.evictionVersion,
    room: dry.room,
    warnings: plan.warnings,
  };
}

export function resultLines(state: RolloutState, context: string): string[] {
  const name = state.spec.name;
  const done = state.nodes.filter((n) => n.phase === 'done').length;
  const where = `${name} --context ${context}`;
  const undo = `(or undo the cordons: fleetdeck rollout abort ${where})`;
  switch (state.phase) {
    case 'Completed':
      return [`Rollout ${name} completed: ${done}/${state.nodes.length} nodes done.`];
    case 'Paused':
      return [`Rollout ${name} paused: ${state.message ?? ''}`, `Continue with: fleetdeck rollout resume ${where}   ${undo}`];
    case 'Failed':
      return [`Rollout ${name} failed: ${state.message ?? ''}`, `Fix it and continue with: fleetdeck rollout resume ${where}   ${undo}`];
    case 'Aborted':
      return [`Rollout ${name} aborted${state.message ? ` (${state.message})` : ''}: ${done}/${state.nodes.length} nodes done.`];
    default:
      if (state.owner)
        return [`Rollout ${name} was taken over by ${ownerIdentity(state.owner)}: it goes on there (fleetdeck rollout watch ${where}).`];
      return [`Rollout ${name}: ${state.phase}`];
  }
}

/**
 * `fleetdeck rollout create|resume|abort|watch|list`: the rollout workflow in plain mode. Every
 * change prints one line (text) or one JSON object per line (-o json). Exit codes: 0 the
 * rollout completed (or the dry run found nothing refused; abort and list succeeded), 1 it
 * failed, paused, was aborted or the confirmation was declined, 2 usage.
 */
import fs from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError, UserError } from '../errors.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/kubeconfig.js';
import { toAscii } from '../checklist/checklist.js';
import { clock } from '../store/selectors.js';
import type { DrainAction, PodClassification } from '../rollout/drain-filters.js';
import { parseNodeRollout } from '../rollout/noderollout.js';
import {
  etaMs,
  formatDuration,
  generatedName,
  initialState,
  liveOwner,
  nodeDetail,
  nodesToUncordon,
  parseSelector,
  resolvePlan,
  rolloutChanges,
  rolloutNameError,
  rolloutSummary,
  type Plan,
  type RolloutChange,
} from '../rollout/plan.js';
import { listPlanNodes } from '../rollout/nodes.js';
import { abortRollout, blockingOwner, dryRunRollout, runRollout, type RolloutDryRun } from '../rollout/runner.js';
import { createRollout, listRollouts, mustReadRollout, readRollout, watchRollouts } from '../rollout/state.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEALTH,
  DEFAULT_MAX_UNAVAILABLE,
  DEFAULT_REPLACE,
  OWNER_STALE_MS,
  REPLACE_MODES,
  type NodeStatus,
  type ReplaceMode,
  type RolloutSpec,
  type RolloutState,
} from '../rollout/types.js';
import { renderRolloutLive, type LiveView } from '../screens/rollouts/rollout-live.js';
import { asciiOnly, colorEnabled, requireOutput, type GlobalOptions } from '../session/options.js';
import { assertWritable } from '../kube/gate.js';
import { resolveContext, type OneContext } from '../session/session.js';

/** A --selector or --node flag, with the --priority that followed it. */
export interface RolloutTarget {
  kind: 'selector' | 'node';
  value: string;
  priority?: number;
}

export interface RolloutCommandOptions extends GlobalOptions {
  yes?: boolean;
  forceTakeover?: boolean;
}

export interface RolloutCreateOptions extends RolloutCommandOptions {
  targets?: RolloutTarget[];
  filename?: string;
  name?: string;
  maxUnavailable?: number;
  replace?: string;
  force?: boolean;
  deleteEmptydirData?: boolean;
  /** Per-node drain timeout, ms. */
  timeout?: number;
  healthPasses?: number;
  healthInterval?: number;
  healthTimeout?: number;
  dryRun?: boolean;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const interactive = () => process.stdin.isTTY === true && process.stdout.isTTY === true;

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** The one context a rollout command works on: --context (once), else the kubeconfig's current context. */
function rolloutContext(opts: GlobalOptions, required: boolean): OneContext {
  return resolveContext(opts, 'a rollout works on one cluster', required ? { required: 'rollout create needs --context (the cluster whose nodes are replaced)' } : {});
}

// ---------------------------------------------------------------------------------------------
// Lines

const ACTION_TEXT: Record<DrainAction, string> = {
  evict: 'evict',
  delete: 'delete (finished)',
  'ignored-daemonset': 'ignored (DaemonSet)',
  'skipped-mirror': 'skipped (mirror)',
  'needs-force': 'needs --force',
  'needs-delete-emptydir-data': 'needs --delete-emptydir-data',
  'blocked-pdb': 'blocked by PDB',
};

/** Prints what changed between the states it is given: one line per change (text) or one JSON object per line. */
export function changePrinter(output: 'text' | 'json', ascii: boolean, opts: { prefixName?: boolean; print?: (line: string) => void } = {}): (state: RolloutState) => void {
  const print = opts.print ?? write;
  const prev = new Map<string, RolloutState>();
  return (state) => {
    const name = state.spec.name;
    const changes = rolloutChanges(prev.get(name), state);
    prev.set(name, state);
    const now = Date.now();
    for (const c of changes) print(output === 'json' ? JSON.stringify(changeJson(c, now)) : changeText(c, now, ascii, opts.prefixName === true));
  };
}

/** "12:00:03 node-2 (priority 10): draining 3/10 pods · 3 evicted, 2 ignored, 0 failed · blocked by …". */
export function changeText(c: RolloutChange, now: number, ascii: boolean, prefixName: boolean): string {
  const prefix = prefixName ? `${c.state.spec.name} ` : '';
  const line =
    c.kind === 'node' && c.node
      ? `${clock(now)} ${prefix}${c.node.name} (priority ${c.node.priority}): ${nodeDetail(c.node, c.state.spec.replace)}`
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
  };
}

function planLines(spec: RolloutSpec, plan: Plan): string[] {
  const out = [
    `Rollout ${spec.name} on ${spec.context}: ${plan.nodes.length} node${plan.nodes.length === 1 ? '' : 's'}, ${spec.maxUnavailable} at a time, replacement: ${spec.replace}`,
    `  drain: timeout ${formatDuration(spec.drain.timeoutMs)}${spec.drain.force ? ', --force' : ''}${spec.drain.deleteEmptyDirData ? ', --delete-emptydir-data' : ''}; health gate: ${spec.health.passes} pass${spec.health.passes === 1 ? '' : 'es'} ${formatDuration(spec.health.intervalMs)} apart within ${formatDuration(spec.health.timeoutMs)}`,
    'Order (higher priorities finish before lower ones start):',
  ];
  plan.nodes.forEach((n, i) => {
    const flags = [n.ready ? '' : 'not Ready', n.unschedulable ? 'cordoned already' : ''].filter(Boolean).join(', ');
    out.push(`  ${String(i + 1).padStart(3)}. ${n.name}  priority ${n.priority}  (${n.source})${flags ? `  [${flags}]` : ''}`);
  });
  for (const w of plan.warnings) out.push(`  warning: ${w}`);
  return out;
}

function dryRunLines(dry: RolloutDryRun, plan: Plan): string[] {
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
  const short = dry.room.filter((r) => !r.fits);
  for (const r of short) out.push(`  WARNING: room for batch ${r.nodes.join(', ')} (priority ${r.priority}): ${r.detail}`);
  if (short.length === 0 && dry.room.length) {
    const worst = dry.room.reduce((a, b) => (b.detail.length && needPods(b) > needPods(a) ? b : a));
    out.push(`  room: every batch fits on the other nodes; largest, ${worst.nodes.join(', ')}: ${worst.detail}`);
  }
  return out;
}

/** The pods a batch's room check counted ("… 12 of 545 pod slots …"). */
const needPods = (r: { detail: string }) => Number(/(\d+) of \d+ pod slots/.exec(r.detail)?.[1] ?? 0);

function podReason(p: PodClassification): string {
  if (p.action === 'blocked-pdb' && p.pdb) return `${p.reason} (${p.pdb.namespace}/${p.pdb.name})`;
  return p.reason;
}

function dryRunJson(spec: RolloutSpec, plan: Plan, dry: RolloutDryRun): Record<string, unknown> {
  const byNode = new Map(dry.drain.nodes.map((n) => [n.node, n]));
  return {
    kind: 'plan',
    rollout: spec,
    nodes: plan.nodes.map((n) => ({
      ...n,
      pods: (byNode.get(n.name)?.pods ?? []).map((p) => ({ namespace: p.namespace, name: p.name, action: p.action, reason: p.reason, ...(p.pdb ? { pdb: p.pdb } : {}) })),
      refused: byNode.get(n.name)?.refused ?? null,
    })),
    evictionVersion: dry.drain.evictionVersion,
    room: dry.room,
    warnings: plan.warnings,
  };
}

function resultLines(state: RolloutState, context: string): string[] {
  const name = state.spec.name;
  const done = state.nodes.filter((n) => n.phase === 'done').length;
  const where = `${name} --context ${context}`;
  switch (state.phase) {
    case 'Completed':
      return [`Rollout ${name} completed: ${done}/${state.nodes.length} nodes done.`];
    case 'Paused':
      return [`Rollout ${name} paused: ${state.message ?? ''}`, `Continue with: fleetdeck rollout resume ${where}   (or undo the cordons: fleetdeck rollout abort ${where})`];
    case 'Failed':
      return [`Rollout ${name} failed: ${state.message ?? ''}`, `Fix it and continue with: fleetdeck rollout resume ${where}   (or undo the cordons: fleetdeck rollout abort ${where})`];
    case 'Aborted':
      return [`Rollout ${name} aborted${state.message ? ` (${state.message})` : ''}: ${done}/${state.nodes.length} nodes done.`];
    default:
      if (state.owner) return [`Rollout ${name} was taken over by fleetdeck pid ${state.owner.pid} on ${state.owner.host}: it goes on there (fleetdeck rollout watch ${where}).`];
      return [`Rollout ${name}: ${state.phase}`];
  }
}

/** The live view, in a terminal without -o (and not in CI). */
function liveView(opts: GlobalOptions, ascii: boolean, waiting: string): LiveView | undefined {
  if (!process.stdout.isTTY || process.env.CI || opts.output !== undefined) return undefined;
  return renderRolloutLive({ ascii, color: colorEnabled(opts), waiting });
}

const exitFor = (state: RolloutState) => (state.phase === 'Completed' ? 0 : 1);

/** Runs the rollout here with a line per change; Ctrl-C (or SIGTERM) pauses it, resumable. */
async function drive(kc: KubeConfig, state: RolloutState, context: string, output: 'text' | 'json', ascii: boolean, forceTakeover: boolean, opts: GlobalOptions): Promise<number> {
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // In a terminal: the log scrolls by above a live table of the nodes; otherwise a line per change.
  const live = liveView(opts, ascii, `starting rollout ${state.spec.name}…`);
  let final: RolloutState;
  try {
    final = await runRollout(kc, state, { forceTakeover }, live ? (s) => live.update(s) : changePrinter(output, ascii), abort.signal);
  } finally {
    live?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (output === 'json') write(JSON.stringify({ kind: 'result', state: final }));
  else for (const l of resultLines(final, context)) write(l);
  return exitFor(final);
}

// ---------------------------------------------------------------------------------------------
// create

/** The spec from the flags and the NodeRollout file (flags and file add up). */
export function specFromOptions(opts: RolloutCreateOptions, context: string, name: string, fileSpec?: ReturnType<typeof parseNodeRollout>): RolloutSpec {
  const replace = (opts.replace ?? DEFAULT_REPLACE) as ReplaceMode;
  if (!REPLACE_MODES.includes(replace)) throw new UsageError(`--replace ${opts.replace}: use one of ${REPLACE_MODES.join(', ')}`);
  const nodeSelectors = [...(fileSpec?.nodeSelectors ?? [])];
  const nodeNames = [...(fileSpec?.nodeNames ?? [])];
  for (const t of opts.targets ?? []) {
    if (t.kind === 'selector') {
      parseSelector(t.value);
      nodeSelectors.push({ selector: t.value, priority: t.priority ?? 0 });
    } else {
      if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(t.value)) throw new UsageError(`--node "${t.value}" is not a node name`);
      nodeNames.push({ name: t.value, priority: t.priority ?? 0 });
    }
  }
  if (nodeSelectors.length === 0 && nodeNames.length === 0) {
    throw new UsageError('rollout create needs nodes: --selector SEL [--priority N], --node NAME [--priority N], or -f NODEROLLOUT.yaml');
  }
  return {
    name,
    context,
    nodeSelectors,
    nodeNames,
    maxUnavailable: opts.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE,
    replace,
    drain: { force: opts.force === true, deleteEmptyDirData: opts.deleteEmptydirData === true, timeoutMs: opts.timeout ?? DEFAULT_DRAIN_TIMEOUT_MS },
    health: {
      passes: opts.healthPasses ?? DEFAULT_HEALTH.passes,
      intervalMs: opts.healthInterval ?? DEFAULT_HEALTH.intervalMs,
      timeoutMs: opts.healthTimeout ?? DEFAULT_HEALTH.timeoutMs,
    },
  };
}

/**
 * `fleetdeck rollout create`: resolves the nodes (Navarchos' priority rules), prints the
 * ordered list and the dry run (every pod's fate, the room check), then — confirmed, or
 * --yes — records the rollout in the cluster and runs it here, a line per change.
 */
export async function runRolloutCreate(opts: RolloutCreateOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const text = output === 'text';
  if (!opts.dryRun) assertWritable('rollout create cordons, drains and replaces nodes', ' (use --dry-run to see what it would do)');
  if (!opts.dryRun && !opts.yes && !interactive()) throw new UsageError('rollout create changes the cluster: confirm with --yes (or look first with --dry-run)');
  let fileSpec: ReturnType<typeof parseNodeRollout> | undefined;
  if (opts.filename) {
    let content: string;
    try {
      content = fs.readFileSync(opts.filename, 'utf8');
    } catch (err) {
      throw new UserError(`cannot read ${opts.filename}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`, 2);
    }
    fileSpec = parseNodeRollout(content, opts.filename);
  }
  const { kc, context } = rolloutContext(opts, true);
  const explicitName = opts.name ?? fileSpec?.name;
  if (explicitName !== undefined) {
    const err = rolloutNameError(explicitName);
    if (err) throw new UsageError(`${err}${opts.name ? ' (--name)' : ` (metadata.name in ${opts.filename})`}`);
  }
  // Validates every flag before anything is read from the cluster.
  const draft = specFromOptions(opts, context, explicitName ?? 'draft', fileSpec);

  let name = explicitName;
  if (name !== undefined) {
    if (await readRollout(kc, name)) throw new UsageError(`a rollout named ${name} exists already in ${context}; choose another --name (fleetdeck rollout list shows them)`);
  } else {
    const base = generatedName();
    for (let i = 1; name === undefined; i++) {
      const candidate = i === 1 ? base : `${base}-${i}`;
      if (!(await readRollout(kc, candidate))) name = candidate;
      if (i > 50) throw new UserError('could not find a free rollout name; give --name');
    }
  }
  const spec: RolloutSpec = { ...draft, name };
  const plan = resolvePlan(await listPlanNodes(kc, context), spec);

  const dry = await dryRunRollout(kc, spec, plan);
  const refused = dry.drain.nodes.filter((n) => n.refused);
  if (text) {
    for (const l of planLines(spec, plan)) write(ascii ? toAscii(l) : l);
    for (const l of dryRunLines(dry, plan)) write(ascii ? toAscii(l) : l);
  } else {
    write(JSON.stringify(dryRunJson(spec, plan, dry)));
  }
  if (opts.dryRun) return refused.length ? 1 : 0;
  if (refused.length) {
    const message = `nothing was changed: ${refused.map((n) => n.refused).join('; ')}; give the flag, or move or delete those pods, and run it again`;
    if (text) write(`\n${message}`);
    else write(JSON.stringify({ kind: 'result', refused: refused.map((n) => ({ node: n.node, message: n.refused })) }));
    return 1;
  }

  if (!opts.yes) {
    const answer = await ask(`\nStart rollout ${name}: cordon, drain and ${spec.replace === 'wait' ? 'wait for the replacement of' : spec.replace === 'delete-node' ? 'delete' : 'uncordon'} ${plan.nodes.length} node${plan.nodes.length === 1 ? '' : 's'} of ${context}? [y/N] `);
    if (!/^y(es)?$/i.test(answer)) {
      write('Nothing was changed.');
      return 1;
    }
  }
  const created = await createRollout(kc, initialState(spec, plan));
  if (text) write(`\nRollout ${name} recorded in ConfigMap kube-system/fleetdeck-rollout-${name}; watch it elsewhere with: fleetdeck rollout watch ${name} --context ${context}`);
  return drive(kc, created.state, context, output, ascii, false, opts);
}

// ---------------------------------------------------------------------------------------------
// resume, abort, watch, list

/** `fleetdeck rollout resume NAME`: claims the rollout and continues it from every node's recorded phase. */
export async function runRolloutResume(name: string, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  assertWritable('rollout resume cordons, drains and replaces nodes');
  const { kc, context } = rolloutContext(opts, false);
  const { state } = await mustReadRollout(kc, name, context);
  if (state.phase === 'Completed' || state.phase === 'Aborted') throw new UserError(`rollout ${name} is ${state.phase}: there is nothing to resume`);
  const other = blockingOwner(state, Date.now(), { host: '', pid: -1 });
  if (other && !opts.forceTakeover) {
    const age = Math.round((Date.now() - Date.parse(other.heartbeat)) / 1000);
    throw new UserError(`rollout ${name} is being run by fleetdeck pid ${other.pid} on ${other.host} (heartbeat ${age} s ago); watch it with fleetdeck rollout watch ${name}, or take over with --force-takeover`);
  }
  if (output === 'text') {
    const done = state.nodes.filter((n) => n.phase === 'done').length;
    write(`Resuming rollout ${name} on ${context}: ${state.phase}, ${done}/${state.nodes.length} nodes done${state.message ? ` (${state.message})` : ''}`);
  }
  return drive(kc, state, context, output, ascii, opts.forceTakeover === true, opts);
}

/** `fleetdeck rollout abort NAME`: stops the rollout (its owner too) and uncordons what it cordoned and did not finish. */
export async function runRolloutAbort(name: string, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  assertWritable('rollout abort uncordons nodes');
  if (!opts.yes && !interactive()) throw new UsageError('rollout abort stops the rollout: confirm with --yes');
  const { kc, context } = rolloutContext(opts, false);
  const { state } = await mustReadRollout(kc, name, context);
  if (state.phase === 'Completed') throw new UserError(`rollout ${name} is Completed: there is nothing to abort`);
  const owner = blockingOwner(state, Date.now(), { host: '', pid: -1 });
  const toUncordon = nodesToUncordon(state);
  if (output === 'text') {
    const done = state.nodes.filter((n) => n.phase === 'done').length;
    write(`Rollout ${name} on ${context}: ${state.phase}, ${done}/${state.nodes.length} nodes done.`);
    if (owner) write(`It is being run by fleetdeck pid ${owner.pid} on ${owner.host}: that fleetdeck stops.`);
    write(toUncordon.length ? `Nodes to uncordon (cordoned by the rollout, not finished): ${toUncordon.join(', ')}` : 'No node to uncordon.');
  }
  if (!opts.yes) {
    const answer = await ask(`Abort rollout ${name}? [y/N] `);
    if (!/^y(es)?$/i.test(answer)) {
      write('Nothing was changed.');
      return 1;
    }
  }
  const { state: final, uncordoned } = await abortRollout(kc, name);
  if (output === 'json') write(JSON.stringify({ kind: 'result', uncordoned, state: final }));
  else write(`Rollout ${name} aborted${uncordoned.length ? `; uncordoned ${uncordoned.join(', ')}` : '; no node needed uncordoning'}.`);
  return final.phase === 'Aborted' ? 0 : 1;
}

const ENDED = new Set(['Completed', 'Aborted', 'Failed', 'Paused']);

/**
 * `fleetdeck rollout watch [NAME]`: the rollout's progress as lines (or JSON lines), live from
 * its ConfigMap, until it ends (0 completed, 1 paused, failed, aborted, or its owner stopped
 * reporting). Without a name: every rollout of the cluster, until Ctrl-C (0).
 */
export async function runRolloutWatch(name: string | undefined, opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const { kc, context } = rolloutContext(opts, false);
  if (name) await mustReadRollout(kc, name, context);
  const live = name ? liveView(opts, ascii, `reading rollout ${name}…`) : undefined;
  const print = live ? (s: RolloutState) => live.update(s) : changePrinter(output, ascii, { prefixName: !name });
  let last: RolloutState | undefined;
  return new Promise<number>((resolve) => {
    let finished = false;
    const finish = (code: number, line?: string) => {
      if (finished) return;
      finished = true;
      clearInterval(staleCheck);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      void watch.stop().then(() => {
        live?.stop();
        if (line) write(line);
        resolve(code);
      });
    };
    const onSignal = () => finish(name ? 1 : 0);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const watch = watchRollouts(
      kc,
      {
        onState: (s) => {
          last = s;
          print(s);
          if (name && ENDED.has(s.phase) && !s.owner) finish(s.phase === 'Completed' ? 0 : 1, output === 'text' ? resultLines(s, context).join('\n') : undefined);
        },
        onDeleted: (n) => {
          if (name && n === name) finish(1, output === 'text' ? `Rollout ${name} was deleted.` : JSON.stringify({ kind: 'deleted', rollout: name }));
        },
        onError: (m) => {
          if (output === 'text') write(`${clock(Date.now())} watch: ${m}`);
        },
      },
      name,
    );
    // A Running rollout whose owner stopped writing its heartbeat is not going anywhere.
    const staleCheck = setInterval(() => {
      if (!name || !last || last.phase !== 'Running') return;
      if (!liveOwner(last, Date.now())) {
        const o = last.owner;
        const why = o ? `its owner (fleetdeck pid ${o.pid} on ${o.host}) stopped reporting ${Math.round((Date.now() - Date.parse(o.heartbeat)) / 1000)} s ago` : 'nobody runs it';
        finish(1, output === 'text' ? `Rollout ${name} is Running but ${why}; continue it with: fleetdeck rollout resume ${name} --context ${context}` : JSON.stringify({ kind: 'stale', rollout: name, owner: o ?? null }));
      }
    }, OWNER_STALE_MS / 3);
  });
}

/** `fleetdeck rollout list`: the rollouts recorded in the cluster, newest first. */
export async function runRolloutList(opts: RolloutCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const { kc, context } = rolloutContext(opts, false);
  const states = await listRollouts(kc);
  const now = Date.now();
  const rows = states.map((s) => {
    const owner = liveOwner(s, now);
    return {
      name: s.spec.name,
      phase: s.phase,
      done: s.nodes.filter((n: NodeStatus) => n.phase === 'done').length,
      failed: s.nodes.filter((n: NodeStatus) => n.phase === 'failed').length,
      total: s.nodes.length,
      replace: s.spec.replace,
      message: s.message ?? null,
      owner: s.owner ? { ...s.owner, live: owner !== undefined } : null,
      createdAt: s.log[0]?.time ?? null,
      updatedAt: s.updatedAt,
    };
  });
  if (output === 'json') {
    write(JSON.stringify({ context, rollouts: rows }, null, 2));
    return 0;
  }
  if (rows.length === 0) {
    write(`No rollouts in ${context}.`);
    return 0;
  }
  const table = [
    ['NAME', 'PHASE', 'NODES', 'REPLACE', 'OWNER', 'UPDATED', 'MESSAGE'],
    ...rows.map((r) => [
      r.name,
      r.phase,
      `${r.done}/${r.total}${r.failed ? ` (${r.failed} failed)` : ''}`,
      r.replace,
      r.owner ? `pid ${r.owner.pid}@${r.owner.host}${r.owner.live ? '' : ' (stale)'}` : '-',
      `${formatDuration(Math.max(0, now - Date.parse(r.updatedAt)))} ago`,
      r.message ?? '',
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  const ascii = asciiOnly(opts);
  for (const row of table) {
    const line = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
    write(ascii ? toAscii(line) : line);
  }
  return 0;
}

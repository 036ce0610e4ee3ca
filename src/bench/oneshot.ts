/**
 * Figure 1: `fleetdeck status -o json` (the built CLI, a whole process) against the raw-transfer
 * floor — the same lists fetched in parallel by curl (raw-floor.ts) — on the same clusters, and
 * against kubectl (`get nodes -o json` and `get pods -A -o json` for every context in turn).
 * Medians of several rounds, fleetdeck and curl taking turns, then kubectl's rounds; CPU of each process;
 * the requests fleetdeck made (counted in one more run); a CPU profile of one fleetdeck run when
 * the ratio misses its target. With many contexts (the fleet kubeconfig) kubectl is left out.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarizeProfile } from './profile.js';
import { childrenCpuMs, CURL, rawFloorRun } from './raw-floor.js';
import { CLI, childEnv } from './sandbox.js';
import { errorLine, figure, median, ms, note, progress } from './util.js';

export const KUBECTL = process.env.FLEETDECK_BENCH_KUBECTL ?? '/usr/bin/kubectl';

interface Run {
  ms: number;
  /** CPU of the process (user + system), 10 ms resolution. */
  cpuMs: number;
  code: number | null;
  stdout: string;
}

/** Runs a command to completion (killed after `timeoutMs`); wall time from spawn to exit. */
function timed(
  cmd: string,
  args: string[],
  opts: { keepStdout?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const cpu0 = childrenCpuMs();
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', opts.keepStdout ? 'pipe' : 'ignore', 'ignore'], env: opts.env ?? childEnv() });
    let stdout = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, cpuMs: childrenCpuMs() - cpu0, code, stdout });
    });
  });
}

const fleetdeckArgs = (kubeconfig: string, cli = CLI) => [cli, 'status', '-o', 'json', '--kubeconfig', kubeconfig];
/** Another build to compare with in the same rounds (the root of a built checkout), e.g. the main branch's. */
const BASELINE = process.env.FLEETDECK_BENCH_BASELINE;

async function kubectlRound(kubeconfig: string, contexts: readonly string[]): Promise<{ ms: number; cpuMs: number }> {
  let total = 0;
  let cpu = 0;
  for (const c of contexts) {
    for (const what of [
      ['get', 'nodes', '-o', 'json'],
      ['get', 'pods', '-A', '-o', 'json'],
    ]) {
      const r = await timed(KUBECTL, ['--kubeconfig', kubeconfig, '--context', c, ...what]);
      if (r.code !== 0) throw new Error(`kubectl --context ${c} ${what.join(' ')} exited ${r.code}`);
      total += r.ms;
      cpu += r.cpuMs;
    }
  }
  return { ms: total, cpuMs: cpu };
}

interface StatusOutput {
  contexts: { name: string; reachable: boolean; nodes?: { total?: number } | null; pods?: { total?: number } | null }[];
}

/** What fleetdeck's JSON says, one line (a check that the run did the work), and which contexts lack pod counts. */
function describeStatus(stdout: string): { line: string; withoutPods: string[] } {
  try {
    const j = JSON.parse(stdout) as StatusOutput;
    return {
      line: j.contexts
        .map(
          (c) =>
            `${c.name}: ${c.reachable ? 'reachable' : 'UNREACHABLE'}, ${c.nodes?.total ?? '?'} nodes, ${c.pods ? `${c.pods.total ?? '?'} pods` : 'no pod counts'}`,
        )
        .join('; '),
      withoutPods: j.contexts.filter((c) => !c.pods).map((c) => c.name),
    };
  } catch {
    return { line: `unreadable output: ${stdout.slice(0, 120)}`, withoutPods: [] };
  }
}

/** A module preloaded into one fleetdeck run: counts its HTTP requests by method and path, written at exit. */
const COUNTER = `import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
const counts = {};
dc.subscribe('undici:request:create', ({ request }) => {
  const [p, q = ''] = request.path.split('?');
  const key = request.method + ' ' + p.replace(/^\\/api\\/v1\\//, '') + (/(^|&)watch=(true|1)/.test(q) ? ' (watch)' : '');
  counts[key] = (counts[key] ?? 0) + 1;
});
process.on('exit', () => fs.writeFileSync(process.env.FLEETDECK_BENCH_COUNT_FILE, JSON.stringify(counts)));
`;

/** The requests one fleetdeck status run makes, by kind: "GET nodes ×3, GET pods ×3, …". */
async function countRequests(kubeconfig: string): Promise<{ total: number; line: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-count-'));
  try {
    const counter = path.join(dir, 'count.mjs');
    const out = path.join(dir, 'counts.json');
    fs.writeFileSync(counter, COUNTER);
    await timed(process.execPath, ['--import', counter, ...fleetdeckArgs(kubeconfig)], {
      env: childEnv({ FLEETDECK_BENCH_COUNT_FILE: out }),
    });
    const counts = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, number>;
    const entries = Object.entries(counts).sort((x, y) => y[1] - x[1]);
    return { total: entries.reduce((s, [, n]) => s + n, 0), line: entries.map(([k, n]) => `${k} ×${n}`).join(', ') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface OneShotOptions {
  rounds?: number;
  /** Goal: fleetdeck's time at most this many times the raw floor's. */
  target: number;
  /** Also time kubectl (context after context; slow with many contexts). */
  kubectl?: boolean;
  /** What the contexts are, for the label ("3 API servers, 10 contexts each"). */
  what?: string;
}

export async function oneShotFigure(kubeconfig: string, contexts: readonly string[], o: OneShotOptions): Promise<void> {
  const rounds = o.rounds ?? 5;
  const label = `one-shot status, ${contexts.length} contexts${o.what ? ` (${o.what})` : ''}`;
  if (!fs.existsSync(CURL)) {
    figure(label, `not measured: ${CURL} not found (set FLEETDECK_BENCH_CURL)`, `≤ ${o.target}× the raw floor`, undefined);
    return;
  }
  const withKubectl = o.kubectl !== false && fs.existsSync(KUBECTL);
  progress(`${label}: warm-up (file cache${withKubectl ? ', kubectl discovery cache' : ''})`);
  const warm = await timed(process.execPath, fleetdeckArgs(kubeconfig), { keepStdout: true });
  await rawFloorRun(kubeconfig, contexts);
  if (withKubectl) await kubectlRound(kubeconfig, contexts);
  const fd: Run[] = [];
  const raw: { ms: number; cpuMs: number; requests: number; bytes: number }[] = [];
  const kc: { ms: number; cpuMs: number }[] = [];
  const rawJson: number[] = [];
  const base: Run[] = [];
  for (let i = 0; i < rounds; i++) {
    if (BASELINE) base.push(await timed(process.execPath, fleetdeckArgs(kubeconfig, path.join(BASELINE, 'dist', 'cli.js'))));
    // Turns alternate, so that neither side always runs on the caches the other warmed.
    if (i % 2) raw.push(await rawFloorRun(kubeconfig, contexts));
    const f = await timed(process.execPath, fleetdeckArgs(kubeconfig));
    if (f.code !== 0) progress(`${label}: fleetdeck status exited ${f.code} in round ${i + 1}`);
    fd.push(f);
    if (i % 2 === 0) raw.push(await rawFloorRun(kubeconfig, contexts));
    rawJson.push((await rawFloorRun(kubeconfig, contexts, true)).ms);
    progress(`${label}: round ${i + 1}/${rounds}: fleetdeck ${ms(f.ms)}, raw ${ms(raw.at(-1)!.ms)}`);
  }
  // kubectl's rounds come after: each reads every list as JSON for about 10 s of CPU, and the API
  // servers are still busy with it (their GC) when the next command starts.
  for (let i = 0; withKubectl && i < rounds; i++) {
    kc.push(await kubectlRound(kubeconfig, contexts));
    progress(`${label}: kubectl round ${i + 1}/${rounds}: ${ms(kc.at(-1)!.ms)}`);
  }
  const f = median(fd.map((r) => r.ms));
  const r = median(raw.map((x) => x.ms));
  const ratio = f / r;
  const k = withKubectl ? median(kc.map((x) => x.ms)) : undefined;
  // A status that returned before some pod lists were in did less work than the floor: no verdict.
  const said = describeStatus(warm.stdout);
  figure(
    `${label}, median of ${rounds}: fleetdeck status -o json vs the same lists fetched raw in parallel (curl)`,
    `${ms(f)} vs ${ms(r)}, ratio ${ratio.toFixed(2)}×${k !== undefined ? `; kubectl get nodes + get pods -A, context after context: ${ms(k)} (fleetdeck ${(f / k).toFixed(2)}× kubectl)` : ''}`,
    `≤ ${o.target}× the raw floor`,
    said.withoutPods.length ? undefined : ratio <= o.target,
  );
  note(
    `CPU (median): fleetdeck ${ms(median(fd.map((x) => x.cpuMs)))}, curl ${ms(median(raw.map((x) => x.cpuMs)))}${withKubectl ? `, kubectl ${ms(median(kc.map((x) => x.cpuMs)))}` : ''}`,
  );
  note(`fleetdeck rounds: ${fd.map((v) => v.ms.toFixed(0)).join(', ')} ms; raw: ${raw.map((v) => v.ms.toFixed(0)).join(', ')} ms`);
  const rj = median(rawJson);
  note(
    `the same lists all as JSON (the floor before nodes and pods were asked for in protobuf): ${ms(rj)}, fleetdeck ${(f / rj).toFixed(2)}× that; rounds ${rawJson.map((v) => v.toFixed(0)).join(', ')} ms`,
  );
  if (BASELINE) {
    const b = median(base.map((x) => x.ms));
    note(
      `baseline build (${BASELINE}) in the same rounds: ${ms(b)}, ratio ${(b / r).toFixed(2)}× the raw floor, CPU ${ms(median(base.map((x) => x.cpuMs)))}; rounds ${base.map((v) => v.ms.toFixed(0)).join(', ')} ms`,
    );
  }
  note(`raw floor: ${raw[0]!.requests} GETs, ${(raw[0]!.bytes / 1024 / 1024).toFixed(1)} MiB on the wire (gzip)`);
  try {
    const c = await countRequests(kubeconfig);
    note(`fleetdeck requests (one run): ${c.total}: ${c.line}`);
  } catch (err) {
    note(`fleetdeck requests not counted: ${errorLine(err)}`);
  }
  note(`fleetdeck said (exit ${warm.code}): ${said.line.length > 400 ? `${said.line.slice(0, 400)}…` : said.line}`);
  if (said.withoutPods.length) {
    note(
      `caution: no pod counts for ${said.withoutPods.join(', ')}: status returned before its pod lists were in, so it did less work than the floor; the ratio flatters fleetdeck`,
    );
  }
  if (ratio > o.target) await explain(kubeconfig, contexts);
}

/** Where a fleetdeck status run spends its time: process start, imports, a CPU profile. */
async function explain(kubeconfig: string, contexts: readonly string[]): Promise<void> {
  progress('figure 1: profiling one fleetdeck status run');
  try {
    const nodeOnly = median(await Promise.all([0, 1, 2].map(() => timed(process.execPath, ['-e', '0'])).map((p) => p.then((r) => r.ms))));
    const versions: number[] = [];
    for (let i = 0; i < 3; i++) versions.push((await timed(process.execPath, [CLI, '--version'])).ms);
    const kubectlVersion: number[] = [];
    for (let i = 0; i < 3; i++) kubectlVersion.push((await timed(KUBECTL, ['version', '--client'])).ms);
    note(
      `process start: node -e 0 ${ms(nodeOnly)}; fleetdeck --version ${ms(median(versions))}; kubectl version --client ${ms(median(kubectlVersion))}`,
    );

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-prof-'));
    try {
      const run = await timed(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...fleetdeckArgs(kubeconfig)]);
      const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (!file) {
        note('no CPU profile was written');
        return;
      }
      const s = summarizeProfile(path.join(dir, file));
      const pct = (v: number) => `${((v / s.totalMs) * 100).toFixed(0)}%`;
      note(`CPU profile of one run (${ms(run.ms)} wall, ${ms(s.totalMs)} profiled, ${contexts.length} contexts):`);
      note(`  loading and evaluating modules (inclusive): ${ms(s.importMs)} (${pct(s.importMs)})`);
      for (const [cat, v] of s.categories.slice(0, 8)) note(`  ${cat}: ${ms(v)} (${pct(v)})`);
      note(
        `  hottest functions (self): ${s.top
          .slice(0, 5)
          .map(([fn, v]) => `${fn} ${ms(v)}`)
          .join('; ')}`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } catch (err) {
    note(`profiling failed: ${errorLine(err)}`);
  }
}

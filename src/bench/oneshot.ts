/**
 * Figure 1: `fleetdeck status -o json` (the built CLI) against what kubectl needs for the same
 * answer — `get nodes -o json` and `get pods -A -o json` for every context in turn — on the
 * same clusters. Medians of several rounds; a CPU profile of one fleetdeck run when the
 * ratio misses its target.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarizeProfile } from './profile.js';
import { CLI, childEnv } from './sandbox.js';
import { errorLine, figure, median, ms, note, progress } from './util.js';

export const KUBECTL = process.env.FLEETDECK_BENCH_KUBECTL ?? '/usr/bin/kubectl';
export const RATIO_TARGET = 0.25;

interface Run {
  ms: number;
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
      resolve({ ms: performance.now() - t0, code, stdout });
    });
  });
}

const fleetdeckArgs = (kubeconfig: string) => [CLI, 'status', '-o', 'json', '--kubeconfig', kubeconfig];

async function kubectlRound(kubeconfig: string, contexts: readonly string[]): Promise<number> {
  let total = 0;
  for (const c of contexts) {
    for (const what of [
      ['get', 'nodes', '-o', 'json'],
      ['get', 'pods', '-A', '-o', 'json'],
    ]) {
      const r = await timed(KUBECTL, ['--kubeconfig', kubeconfig, '--context', c, ...what]);
      if (r.code !== 0) throw new Error(`kubectl --context ${c} ${what.join(' ')} exited ${r.code}`);
      total += r.ms;
    }
  }
  return total;
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

export async function oneShotFigure(kubeconfig: string, contexts: readonly string[], rounds = 5): Promise<void> {
  const label = `one-shot status, ${contexts.length} contexts`;
  if (!fs.existsSync(KUBECTL)) {
    figure(label, `not measured: ${KUBECTL} not found (set FLEETDECK_BENCH_KUBECTL)`, `≤ ${RATIO_TARGET}× kubectl`, undefined);
    return;
  }
  progress(`figure 1: warm-up (kubectl discovery cache, file cache)`);
  const warm = await timed(process.execPath, fleetdeckArgs(kubeconfig), { keepStdout: true });
  await kubectlRound(kubeconfig, contexts);
  const fd: number[] = [];
  const kc: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const f = await timed(process.execPath, fleetdeckArgs(kubeconfig));
    if (f.code !== 0) progress(`figure 1: fleetdeck status exited ${f.code} in round ${i + 1}`);
    fd.push(f.ms);
    kc.push(await kubectlRound(kubeconfig, contexts));
    progress(`figure 1: round ${i + 1}/${rounds}: fleetdeck ${ms(f.ms)}, kubectl ${ms(kc[kc.length - 1]!)}`);
  }
  const f = median(fd);
  const k = median(kc);
  const ratio = f / k;
  figure(
    `one-shot status on ${contexts.length} contexts (median of ${rounds}): fleetdeck status -o json vs kubectl get nodes + get pods -A, -o json, context after context`,
    `${ms(f)} vs ${ms(k)}, ratio ${ratio.toFixed(2)}×`,
    `≤ ${RATIO_TARGET}×`,
    ratio <= RATIO_TARGET,
  );
  note(`fleetdeck rounds: ${fd.map((v) => v.toFixed(0)).join(', ')} ms; kubectl rounds: ${kc.map((v) => v.toFixed(0)).join(', ')} ms`);
  const said = describeStatus(warm.stdout);
  note(`fleetdeck said (exit ${warm.code}): ${said.line}`);
  if (said.withoutPods.length) {
    note(
      `caution: no pod counts for ${said.withoutPods.join(', ')}: status returned before its pod lists were in, so it did less work than kubectl (which lists every pod); the ratio flatters fleetdeck`,
    );
  }
  if (ratio > RATIO_TARGET) await explain(kubeconfig, contexts);
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

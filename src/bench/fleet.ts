/**
 * The fleet figure: the real dashboard (`fleetdeck --kubeconfig F`, the built CLI) on N contexts
 * spread over the fleet sandbox's API servers (fleet-kubeconfig.ts), in a pseudo-terminal made
 * by `script`, its output fed to a virtual terminal. Figures: process start → first full frame
 * (every context row showing its nodes, pods and warnings), the process's CPU over an idle
 * window after that (utime + stime from /proc/<pid>/stat: the machine may be shared, wall time
 * would not say what the dashboard costs), and its RSS at the end of the window.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { CLI, childEnv } from './sandbox.js';
import { fleetKubeconfig } from './fleet-kubeconfig.js';
import { figure, mib, ms, note, progress, sleep, waitFor } from './util.js';
import { tableCell, VirtualTerminal } from './vterm.js';

export const FLEET_IDLE_CPU_TARGET = 1; // % of a core
export const FLEET_RSS_TARGET = 250 * 1024 * 1024;

export interface FleetFigureOptions {
  contexts: number;
  idleMs: number;
  /** Extra node options for the dashboard (e.g. --cpu-prof --cpu-prof-dir=DIR while looking for costs). */
  nodeArgs?: string[];
  /** Another build's dist/cli.js (FLEETDECK_BENCH_FLEET_CLI), to compare two builds on the same clusters. */
  cli?: string | undefined;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: fields count from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM). */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** The first child of `pid` (the dashboard under `script`'s shell, which execs it). */
function childOf(pid: number): number | undefined {
  try {
    const first = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0];
    return first ? Number(first) : undefined;
  } catch {
    return undefined;
  }
}

const filled = (cell: string | undefined) => cell !== undefined && cell !== '' && cell !== '-';

/** Every context row on screen shows its nodes, pods and warnings (rows below the screen's end are not looked for). */
function fullFrame(screen: readonly string[], names: readonly string[]): boolean {
  const rows = names.filter((n) => tableCell(screen, 'NAME', n) !== undefined);
  if (rows.length < Math.min(names.length, 20)) return false;
  return rows.every(
    (n) =>
      /^\d+\/\d+/.test(tableCell(screen, 'NODES', n) ?? '') && filled(tableCell(screen, 'PODS', n)) && filled(tableCell(screen, 'WARN', n)),
  );
}

/** The dashboard in a pseudo-terminal of `cols`×`rows`; its output drawn into `vt`. */
function startDashboard(kubeconfig: string, vt: VirtualTerminal, nodeArgs: string[], cli: string): ChildProcess {
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const cmd = `stty rows ${vt.rows} cols ${vt.columns}; exec ${[process.execPath, ...nodeArgs, cli, '--kubeconfig', kubeconfig].map(q).join(' ')}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: childEnv({ TERM: 'xterm-256color', SHELL: '/bin/sh' }),
  });
  child.stdout?.on('data', (d: Buffer) => vt.write(d));
  return child;
}

async function quit(child: ChildProcess, pid: number | undefined): Promise<void> {
  if (child.exitCode !== null) return;
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  child.stdin?.write('q');
  const t = setTimeout(() => {
    if (pid) process.kill(pid, 'SIGTERM');
    child.kill('SIGKILL');
  }, 10_000);
  await closed;
  clearTimeout(t);
}

export async function fleetFigure(sandboxKubeconfig: string, o: FleetFigureOptions): Promise<void> {
  const kubeconfig = await fleetKubeconfig(sandboxKubeconfig, o.contexts);
  const names = contextInfos(loadKubeconfig({ kubeconfig }).config).map((c) => c.name);
  const label = `fleet (${names.length} contexts)`;
  const vt = new VirtualTerminal(160, Math.max(40, Math.min(names.length, 60) + 14));
  progress(`${label}: starting the dashboard in a ${vt.columns}×${vt.rows} pseudo-terminal`);
  const t0 = performance.now();
  const child = startDashboard(kubeconfig, vt, o.nodeArgs ?? [], o.cli ?? CLI);
  if (o.cli) progress(`${label}: the dashboard of ${o.cli}`);
  let pid: number | undefined;
  try {
    pid = await waitFor('the dashboard process', () => childOf(child.pid!), { timeoutMs: 10_000, intervalMs: 20 });
    const frameAt = await vt.waitForScreen((s) => fullFrame(s, names), 5 * 60_000);
    if (frameAt === undefined) throw new Error(`no full frame within 5 minutes; the screen:\n${vt.screen().join('\n')}`);
    const frameMs = frameAt - t0;
    const rssAtFrame = statusBytes(pid, 'VmRSS');
    const cpuToFrame = cpuSeconds(pid);
    // The initial lists' garbage collected, the last list events in: then idle.
    await sleep(10_000);
    const idle = () => cpuSeconds(pid!);
    const c0 = idle();
    const w0 = vt.writes;
    const b0 = vt.written;
    const s0 = performance.now();
    progress(`${label}: first full frame after ${ms(frameMs)}; measuring ${Math.round(o.idleMs / 1000)} s idle`);
    await sleep(o.idleMs);
    const seconds = (performance.now() - s0) / 1000;
    const cpu = ((idle() - c0) / seconds) * 100;
    const rss = statusBytes(pid, 'VmRSS');
    const peak = statusBytes(pid, 'VmHWM');
    figure(
      `${label}: process start → first full frame`,
      `${ms(frameMs)} (CPU ${cpuToFrame.toFixed(1)} s until then)`,
      'none set',
      undefined,
    );
    figure(
      `${label}: dashboard CPU idle over ${seconds.toFixed(0)} s after sync`,
      `${cpu.toFixed(2)} % of a core`,
      `≤ ${FLEET_IDLE_CPU_TARGET} %`,
      cpu <= FLEET_IDLE_CPU_TARGET,
    );
    figure(`${label}: dashboard RSS after the idle window`, mib(rss), `≤ ${mib(FLEET_RSS_TARGET)}`, rss <= FLEET_RSS_TARGET);
    note(`RSS at the first frame ${mib(rssAtFrame)}, peak ${mib(peak)}`);
    note(`while idle: ${vt.writes - w0} writes to the terminal (${((vt.written - b0) / 1024).toFixed(1)} KiB)`);
  } finally {
    await quit(child, pid);
    fs.rmSync(path.dirname(kubeconfig), { recursive: true, force: true });
  }
}

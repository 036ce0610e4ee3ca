/**
 * Figure 5: `fleetdeck logs -f` (the built CLI) on a real API server. A simulated pod writes
 * RATE numbered lines a second (`log line N`, the sandbox's log-rate annotation); the CLI
 * follows it for a while with its stdout read here. Lines a second delivered once the backlog
 * is read, gaps in the numbering, the CLI's CPU (utime + stime from /proc) and RSS, then Ctrl-C
 * (SIGINT) and its exit code (130 expected).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import type { CoreV1Api, V1Pod } from '@kubernetes/client-node';
import { statusCode } from '../kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { core, ensureNamespace, PAUSE_IMAGE, sandboxNodeNames } from './populate.js';
import { CLI, childEnv } from './sandbox.js';
import { errorLine, figure, mib, note, progress, sleep, waitFor } from './util.js';

const NAMESPACE = 'fleetdeck-bench-logs';
const POD = 'log-writer';
const RATE = 1_000;
const LOG_RATE_ANNOTATION = 'sandbox.fleetdeck.io/log-rate';
/** Lines read before this long after the first one are the backlog (written before the follow began). */
const SETTLE_MS = 5_000;
const RATE_TARGET = 950;
const CPU_TARGET = 25;
const RSS_TARGET = 150 * 1024 * 1024;
const LINE = /log line (\d+)$/;

function writerPod(nodeName: string): V1Pod {
  return {
    metadata: { name: POD, labels: { app: 'fleetdeck-bench-logs' }, annotations: { [LOG_RATE_ANNOTATION]: String(RATE) } },
    spec: {
      nodeName,
      containers: [{ name: 'writer', image: PAUSE_IMAGE }],
      tolerations: [{ operator: 'Exists' }],
      terminationGracePeriodSeconds: 0,
    },
  };
}

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** Resident set size in bytes, from /proc/<pid>/status. */
function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** What the bench reads from the CLI's stdout. */
class LineCounter {
  numbered = 0;
  other = 0;
  last = 0;
  first = 0;
  lost = 0;
  gaps = 0;
  backwards = 0;
  firstAt = 0;
  private rest = '';

  feed(chunk: Buffer): void {
    const text = this.rest + chunk.toString('utf8');
    const lines = text.split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  private line(line: string): void {
    const m = LINE.exec(line);
    if (!m) {
      this.other++;
      return;
    }
    const n = Number(m[1]);
    if (this.numbered === 0) {
      // The follow reads the log from its start: lines before the first one read are lost too.
      this.first = n;
      this.firstAt = performance.now();
      if (n > 1) {
        this.gaps++;
        this.lost += n - 1;
      }
    } else if (n > this.last + 1) {
      this.gaps++;
      this.lost += n - this.last - 1;
    } else if (n <= this.last) {
      this.backwards++;
    }
    this.numbered++;
    if (n > this.last) this.last = n;
  }
}

/** Deletes the namespace and waits until it is gone (a next run could not create its pod in a terminating one). */
async function cleanup(api: CoreV1Api): Promise<void> {
  try {
    await api.deleteNamespace({ name: NAMESPACE });
    await waitFor(
      `namespace ${NAMESPACE} gone`,
      () =>
        api.readNamespace({ name: NAMESPACE }).then(
          () => false,
          (err: unknown) => statusCode(err) === 404,
        ),
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  } catch (err) {
    if (statusCode(err) !== 404) progress(`logs -f: deleting namespace ${NAMESPACE}: ${errorLine(err)}`);
  }
}

/** The exit code (128 + the signal's number when a signal ended it); call right after spawn. */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 + os.constants.signals[signal] : null)));
  });
}

export async function logsFollowFigure(kubeconfig: string, context: string, seconds = 30): Promise<void> {
  const label = `logs -f of a pod writing ${RATE.toLocaleString('en-US')} lines/s`;
  const { config } = loadKubeconfig({ kubeconfig });
  const api = core(configForContext(config, context));
  let child: ChildProcess | undefined;
  try {
    await ensureNamespace(api, NAMESPACE);
    const nodes = await sandboxNodeNames(api);
    if (nodes.length === 0) throw new Error(`${context}: no simulated node to run the pod`);
    await api.createNamespacedPod({ namespace: NAMESPACE, body: writerPod(nodes[0]!) });
    await waitFor(
      `${context}: pod ${POD} Running`,
      async () => (await api.readNamespacedPod({ name: POD, namespace: NAMESPACE })).status?.phase === 'Running',
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    progress(`logs -f: ${context}/${POD} Running; following it for ${seconds} s`);

    const args = [CLI, 'logs', '-f', `pod/${POD}`, '-n', NAMESPACE, '--kubeconfig', kubeconfig, '--context', context];
    const t0 = performance.now();
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    child = proc;
    const done = exited(proc);
    const counter = new LineCounter();
    let stderr = '';
    proc.stdout?.on('data', (d: Buffer) => counter.feed(d));
    proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const pid = proc.pid;
    if (pid === undefined) throw new Error('the CLI did not start');

    // The steady part: from SETTLE_MS after the first line to the end of the run.
    let settled: { at: number; lines: number; cpu: number } | undefined;
    const end = t0 + seconds * 1000;
    while (performance.now() < end && proc.exitCode === null) {
      await sleep(100);
      if (!settled && counter.numbered > 0 && performance.now() - counter.firstAt >= SETTLE_MS) {
        settled = { at: performance.now(), lines: counter.numbered, cpu: cpuSeconds(pid) };
      }
    }
    if (proc.exitCode !== null) throw new Error(`the CLI exited ${proc.exitCode} during the run: ${stderr.trim().split('\n')[0] ?? ''}`);
    const tEnd = performance.now();
    const cpuEnd = cpuSeconds(pid);
    const rss = rssBytes(pid);
    const linesEnd = counter.numbered;

    proc.kill('SIGINT');
    const code = await Promise.race([done, sleep(10_000).then(() => 'still running' as const)]);
    if (code === 'still running') proc.kill('SIGKILL');

    if (!settled || counter.numbered === 0) {
      figure(`${label}: lines a second delivered`, `not measured: ${counter.numbered} numbered lines read`, `≥ ${RATE_TARGET}`, undefined);
    } else {
      const rate = (linesEnd - settled.lines) / ((tEnd - settled.at) / 1000);
      figure(`${label}: lines a second delivered`, `${rate.toFixed(0)}/s`, `≥ ${RATE_TARGET}/s`, rate >= RATE_TARGET);
      note(
        `${counter.numbered} numbered lines read in ${((tEnd - t0) / 1000).toFixed(1)} s (lines ${counter.first}–${counter.last}, ` +
          `${counter.other} other lines); rate measured after the first ${SETTLE_MS / 1000} s of reading (the backlog)`,
      );
    }
    note(
      `lines lost: ${counter.lost}${counter.gaps ? ` in ${counter.gaps} gaps` : ''}${counter.backwards ? `, ${counter.backwards} out of order` : ''} ` +
        `[target 0: ${counter.numbered > 0 ? (counter.lost === 0 && counter.backwards === 0 ? 'met' : 'MISSED') : 'not judged'}]`,
    );
    const cpuPct = (cpuEnd / ((tEnd - t0) / 1000)) * 100;
    figure(`${label}: CLI CPU`, `${cpuPct.toFixed(1)} % of a core over the run`, `≤ ${CPU_TARGET} %`, cpuPct <= CPU_TARGET);
    if (settled) {
      note(`${(((cpuEnd - settled.cpu) / ((tEnd - settled.at) / 1000)) * 100).toFixed(1)} % after the backlog (start-up left out)`);
    }
    figure(`${label}: CLI RSS at the end`, mib(rss), `≤ ${mib(RSS_TARGET)}`, rss <= RSS_TARGET);
    note(
      code === 'still running'
        ? 'after SIGINT: still running after 10 s (killed) [target exit 130: MISSED]'
        : `after SIGINT: exit ${code} [target 130: ${code === 130 ? 'met' : 'MISSED'}]`,
    );
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await cleanup(api);
  }
}

import fs from 'node:fs';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { ContainerLog, containerLogFile, podLogDir, type LogStream } from './container-log.js';
import { faultOf, type Fault } from './pod-status.js';

/**
 * Annotation making a simulated pod's first container write that many numbered lines per
 * second while it runs (e.g. `"1000"`), for log viewers under load.
 */
export const LOG_RATE_ANNOTATION = 'sandbox.fleetdeck.io/log-rate';
/** The restart count the CrashLoopBackOff fault reports (see pod-status.ts): instances 3 and 4 crashed. */
const CRASHED_INSTANCES = [3, 4];
const RATE_TICK_MS = 100;
const MAX_RATE = 100_000;

type Line = [LogStream, string];

function port(c: V1Container): number {
  return c.ports?.[0]?.containerPort ?? 8080;
}

/** What a container prints while starting, up to (not including) being ready. */
export function startupLines(c: V1Container): Line[] {
  return [
    ['stdout', `starting ${c.name} (image ${c.image ?? 'unknown'})`],
    ['stdout', `loading configuration from /etc/${c.name}/config.yaml`],
    ['stdout', `listening on :${port(c)}`],
  ];
}

/** What the faulted or healthy container prints after starting. */
export function afterStartLines(c: V1Container, fault: Fault | undefined): Line[] {
  if (fault === 'CrashLoopBackOff') {
    return [
      ['stderr', 'panic: runtime error: invalid memory address or nil pointer dereference'],
      ['stderr', '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2f1c]'],
      ['stderr', ''],
      ['stderr', 'goroutine 1 [running]:'],
      ['stderr', 'main.(*Server).connect(...)'],
      ['stderr', `\t/src/${c.name}/server.go:87`],
      ['stderr', 'main.main()'],
      ['stderr', `\t/src/${c.name}/main.go:42 +0x1c5`],
      ['stderr', 'exit status 1'],
    ];
  }
  if (fault === 'NotReady') {
    return [
      [
        'stderr',
        `readiness check failed: GET http://0.0.0.0:${port(c)}/readyz: dependency "backend" unreachable: dial tcp 10.96.0.42:5432: connect: connection refused`,
      ],
    ];
  }
  return [['stdout', 'ready']];
}

interface Running {
  logs: ContainerLog[];
  timer?: NodeJS.Timeout;
  rate?: number;
  /** Numbered lines written so far (numbering goes on when the rate changes). */
  written: number;
}

function rateOf(pod: V1Pod): number {
  const n = Number(pod.metadata?.annotations?.[LOG_RATE_ANNOTATION] ?? 0);
  return Number.isFinite(n) && n > 0 ? Math.min(MAX_RATE, n) : 0;
}

/**
 * The container logs of simulated pods: a few start-up lines (and the crash or readiness
 * failure their fault stands for), then, with LOG_RATE_ANNOTATION, numbered lines while the
 * pod runs. Running containers keep their log open (a follow waits for more).
 */
export class SimulatedLogs {
  private readonly pods = new Map<string, Running>();

  constructor(private readonly runtimeDir: string) {}

  /** The pod was started (or found running after a restart): writes its logs once. */
  started(pod: V1Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const known = this.pods.get(uid);
    if (known) return this.setRate(known, rateOf(pod));
    if (!uid) return;
    const dir = podLogDir(this.runtimeDir, pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', uid);
    const fault = faultOf(pod);
    const running: Running = { logs: [], written: 0 };
    this.pods.set(uid, running);
    for (const c of pod.spec?.initContainers ?? []) {
      writeOnce(dir, c, 0, [
        ['stdout', `starting ${c.name} (image ${c.image ?? 'unknown'})`],
        ['stdout', 'done'],
      ])?.close();
    }
    if (fault === 'ImagePullBackOff') return;
    for (const c of pod.spec?.containers ?? []) {
      const lines = [...startupLines(c), ...afterStartLines(c, fault)];
      if (fault === 'CrashLoopBackOff') {
        for (const i of CRASHED_INSTANCES) writeOnce(dir, c, i, lines)?.close();
        continue;
      }
      running.logs.push(writeOnce(dir, c, 0, lines) ?? new ContainerLog(dir, c.name, 0));
    }
    this.setRate(running, rateOf(pod));
  }

  /** Starts, changes or stops the numbered lines of the pod's first container. */
  private setRate(running: Running, rate: number): void {
    if (running.rate === rate) return;
    if (running.timer) clearInterval(running.timer);
    running.timer = undefined;
    running.rate = rate;
    const first = running.logs[0];
    if (first && rate > 0) running.timer = rateTimer(first, rate, running);
  }

  /** The pod went away (or is being deleted): its containers stop writing. */
  stopped(uid: string): void {
    const running = this.pods.get(uid);
    this.pods.delete(uid);
    if (!running) return;
    if (running.timer) clearInterval(running.timer);
    for (const l of running.logs) l.close();
  }

  stopAll(): void {
    for (const uid of [...this.pods.keys()]) this.stopped(uid);
  }
}

/** Opens instance `instance`'s log and writes `lines` unless it has content already (a restart of the sandbox). */
function writeOnce(dir: string, c: V1Container, instance: number, lines: Line[]): ContainerLog | undefined {
  let had = false;
  try {
    had = fs.statSync(containerLogFile(dir, c.name, instance)).size > 0;
  } catch {
    // new
  }
  const log = new ContainerLog(dir, c.name, instance);
  if (!had) for (const [stream, text] of lines) log.write(stream, text);
  return log;
}

/** Writes `rate` numbered lines per second, in batches every RATE_TICK_MS. */
function rateTimer(log: ContainerLog, rate: number, count: { written: number }): NodeJS.Timeout {
  const started = Date.now();
  const base = count.written;
  return setInterval(() => {
    const due = base + Math.floor(((Date.now() - started) / 1000) * rate);
    if (due <= count.written) return;
    const lines: string[] = [];
    for (let n = count.written + 1; n <= due; n++) lines.push(`log line ${n}`);
    count.written = due;
    log.write('stdout', lines.join('\n'));
  }, RATE_TICK_MS);
}

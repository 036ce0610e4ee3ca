import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Container logs as a kubelet stores them: one file per container instance,
 * `<runtime dir>/logs/pods/<ns>_<pod>_<uid>/<container>/<restartCount>.log`, each line in the
 * CRI format `<RFC 3339 with nanoseconds> <stdout|stderr> F <text>`.
 */

export type LogStream = 'stdout' | 'stderr';

/** One line of a CRI log file. */
export interface CriEntry {
  /** As written: RFC 3339 with nine digits of nanoseconds. */
  time: string;
  /** Milliseconds since the epoch (for sinceTime). */
  ms: number;
  stream: LogStream;
  text: string;
}

/** Above this size a file is rotated (kept as `<n>.log.1`), as the kubelet rotates at 10 MiB. */
const ROTATE_BYTES = 10 * 1024 * 1024;

export function podLogDir(runtimeDir: string, namespace: string, pod: string, uid: string): string {
  return path.join(runtimeDir, 'logs', 'pods', `${namespace}_${pod}_${uid}`);
}

export function containerLogFile(podDir: string, container: string, instance: number): string {
  return path.join(podDir, container, `${instance}.log`);
}

let lastNanos = 0n;

/** Now, in nanoseconds since the epoch, strictly increasing within this process. */
function nowNanos(): bigint {
  const n = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
  const next = n > lastNanos ? n : lastNanos + 1n;
  lastNanos = next;
  return next;
}

/** RFC 3339 with nine digits of fractional seconds (`2026-11-25T17:09:01.123456789Z`). */
export function criTime(nanos: bigint = nowNanos()): string {
  const ms = Number(nanos / 1_000_000n);
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0');
  return new Date(ms).toISOString().replace(/\.\d+Z$/, `.${frac}Z`);
}

/** Go's RFC3339Nano: trailing zeros of the fraction (and a fraction of zero) dropped. */
export function rfc3339Nano(criTimestamp: string): string {
  return criTimestamp.replace(/\.(\d*?)0+Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

export function criLine(stream: LogStream, text: string, time = criTime()): string {
  return `${time} ${stream} F ${text}\n`;
}

/** One line of a CRI log, or undefined when it is not one. */
export function parseCriLine(line: string): CriEntry | undefined {
  const m = /^(\S+) (stdout|stderr) ([FP]) (.*)$/.exec(line);
  if (!m) return undefined;
  const ms = Date.parse(m[1]!);
  if (Number.isNaN(ms)) return undefined;
  return { time: m[1]!, ms, stream: m[2] as LogStream, text: m[4]! };
}

/** Every line of a CRI log text (partial last lines are left out: they are still being written). */
export function parseCriLog(text: string): CriEntry[] {
  const lines = text.split('\n');
  lines.pop();
  return lines.flatMap((l) => parseCriLine(l) ?? []);
}

const open = new Set<string>();

/** True while a container instance writes to `file` (a follow keeps reading until it is not). */
export function isLogOpen(file: string): boolean {
  return open.has(file);
}

/**
 * The log of one container instance: created (empty) at once, lines appended in CRI format;
 * instances older than the previous one are removed, as the kubelet keeps only those two.
 */
export class ContainerLog {
  readonly file: string;
  private fd: number | undefined;
  private size = 0;
  private readonly partial: Record<LogStream, string> = { stdout: '', stderr: '' };

  constructor(podDir: string, container: string, instance: number) {
    this.file = containerLogFile(podDir, container, instance);
    const dir = path.dirname(this.file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    pruneInstances(dir, instance);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
    open.add(this.file);
  }

  /** Appends lines (text split at newlines) to the stream. */
  write(stream: LogStream, text: string): void {
    this.writeLines(stream, text.split('\n'));
  }

  private writeLines(stream: LogStream, lines: string[]): void {
    if (this.fd === undefined || lines.length === 0) return;
    const time = criTime();
    const data = lines.map((l) => criLine(stream, l, time)).join('');
    try {
      if (this.size + data.length > ROTATE_BYTES && this.size > 0) this.rotate();
      fs.writeSync(this.fd, data);
      this.size += Buffer.byteLength(data);
    } catch {
      // the pod's log directory went away with the pod
    }
  }

  private rotate(): void {
    fs.closeSync(this.fd!);
    fs.renameSync(this.file, `${this.file}.1`);
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = 0;
  }

  /** Copies a child's output into the log line by line (a partial last line is written when the stream ends). */
  pipe(from: Readable, stream: LogStream): void {
    from.setEncoding('utf8');
    from.on('data', (chunk: string) => {
      const lines = (this.partial[stream] + chunk).split('\n');
      this.partial[stream] = lines.pop() ?? '';
      this.writeLines(stream, lines);
    });
    from.on('end', () => {
      if (this.partial[stream]) this.writeLines(stream, [this.partial[stream]]);
      this.partial[stream] = '';
    });
  }

  /** The instance ended: no more lines. */
  close(): void {
    for (const s of ['stdout', 'stderr'] as const) if (this.partial[s]) this.writeLines(s, [this.partial[s]]);
    open.delete(this.file);
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Removes the logs of instances older than the one before `current`. */
export function pruneInstances(containerDir: string, current: number): void {
  let names: string[];
  try {
    names = fs.readdirSync(containerDir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = /^(\d+)\.log(\.1)?$/.exec(n);
    if (m && Number(m[1]) < current - 1) fs.rmSync(path.join(containerDir, n), { force: true });
  }
}

/** Removes a pod's logs (the pod was deleted). */
export function removePodLogs(podDir: string): void {
  fs.rmSync(podDir, { recursive: true, force: true });
}

/** The uids of the pods that have a log directory under `<runtime dir>/logs/pods`, with the directory. */
export function podLogDirs(runtimeDir: string): { uid: string; dir: string }[] {
  const root = path.join(runtimeDir, 'logs', 'pods');
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return names.filter((d) => d.isDirectory()).map((d) => ({ uid: d.name.split('_').pop() ?? '', dir: path.join(root, d.name) }));
}

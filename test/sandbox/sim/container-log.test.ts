import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ContainerLog,
  criLine,
  criTime,
  isLogOpen,
  parseCriLine,
  parseCriLog,
  podLogDir,
  removePodLogs,
  rfc3339Nano,
} from '../../../src/sandbox/sim/container-log.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'container-log-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('CRI log lines', () => {
  it('are written with RFC 3339 nanosecond times, the stream and F, and read back', () => {
    const t = criTime();
    expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
    const line = criLine('stderr', 'boom: it broke', t);
    expect(line).toBe(`${t} stderr F boom: it broke\n`);
    expect(parseCriLine(line.trimEnd())).toEqual({ time: t, ms: Date.parse(t), stream: 'stderr', text: 'boom: it broke' });
    expect(parseCriLine('not a log line')).toBeUndefined();
  });

  it('keep times strictly increasing', () => {
    const times = Array.from({ length: 50 }, () => criTime());
    expect(new Set(times).size).toBe(50);
    expect([...times].sort()).toEqual(times);
  });

  it('drop trailing zeros of the fraction as Go’s RFC3339Nano does', () => {
    expect(rfc3339Nano('2026-11-25T17:09:01.123450000Z')).toBe('2026-11-25T17:09:01.12345Z');
    expect(rfc3339Nano('2026-11-25T17:09:01.000000000Z')).toBe('2026-11-25T17:09:01Z');
    expect(rfc3339Nano('2026-11-25T17:09:01.123456789Z')).toBe('2026-11-25T17:09:01.123456789Z');
  });

  it('leave a partial last line out when parsing', () => {
    const text = `${criLine('stdout', 'one')}${criLine('stdout', 'two')}2026-11-25T17:09:01.1Z std`;
    expect(parseCriLog(text).map((e) => e.text)).toEqual(['one', 'two']);
  });
});

describe('ContainerLog', () => {
  it('writes one file per instance under <ns>_<pod>_<uid>/<container>/<n>.log', () => {
    const pod = podLogDir(tmp(), 'ns', 'web', 'uid-1');
    const log = new ContainerLog(pod, 'app', 2);
    log.write('stdout', 'first\nsecond');
    expect(log.file).toBe(path.join(pod, 'app', '2.log'));
    expect(isLogOpen(log.file)).toBe(true);
    log.close();
    expect(isLogOpen(log.file)).toBe(false);
    expect(parseCriLog(fs.readFileSync(log.file, 'utf8')).map((e) => [e.stream, e.text])).toEqual([
      ['stdout', 'first'],
      ['stdout', 'second'],
    ]);
  });

  it('keeps only the current and the previous instance', () => {
    const pod = podLogDir(tmp(), 'ns', 'web', 'uid-1');
    for (const n of [0, 1, 2, 3]) new ContainerLog(pod, 'app', n).close();
    expect(fs.readdirSync(path.join(pod, 'app')).sort()).toEqual(['2.log', '3.log']);
    removePodLogs(pod);
    expect(fs.existsSync(pod)).toBe(false);
  });

  it('splits piped output into lines per stream, writing a partial last line at the end', async () => {
    const log = new ContainerLog(podLogDir(tmp(), 'ns', 'p', 'u'), 'c', 0);
    const out = new PassThrough();
    const err = new PassThrough();
    log.pipe(out, 'stdout');
    log.pipe(err, 'stderr');
    out.write('hel');
    out.write('lo\nwor');
    err.write('oops\n');
    out.end('ld');
    err.end();
    await new Promise((r) => out.once('end', r));
    log.close();
    expect(parseCriLog(fs.readFileSync(log.file, 'utf8')).map((e) => `${e.stream}:${e.text}`)).toEqual([
      'stdout:hello',
      'stderr:oops',
      'stdout:world',
    ]);
  });
});

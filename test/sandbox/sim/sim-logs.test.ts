import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { containerLogFile, parseCriLog, podLogDir } from '../../../src/sandbox/sim/container-log.js';
import { FAULT_ANNOTATION } from '../../../src/sandbox/sim/pod-status.js';
import { LOG_RATE_ANNOTATION, SimulatedLogs } from '../../../src/sandbox/sim/sim-logs.js';
import { eventually } from '../../helpers/cli/cli.js';

const dirs: string[] = [];
const running: SimulatedLogs[] = [];
afterEach(() => {
  for (const l of running.splice(0)) l.stopAll();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(): { dir: string; logs: SimulatedLogs } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sim-logs-'));
  dirs.push(dir);
  const logs = new SimulatedLogs(dir);
  running.push(logs);
  return { dir, logs };
}

const pod = (name: string, annotations: Record<string, string> = {}): V1Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, annotations },
  spec: { containers: [{ name: 'app', image: 'example.com/app:1' }] },
});
const lines = (dir: string, name: string, instance: number) => {
  const file = containerLogFile(podLogDir(dir, 'ns', name, `uid-${name}`), 'app', instance);
  return fs.existsSync(file) ? parseCriLog(fs.readFileSync(file, 'utf8')).map((e) => e.text) : undefined;
};

describe('the logs of simulated containers', () => {
  it('start with plausible start-up lines, written once', () => {
    const { dir, logs } = setup();
    logs.started(pod('web'));
    logs.started(pod('web'));
    expect(lines(dir, 'web', 0)).toEqual([
      'starting app (image example.com/app:1)',
      'loading configuration from /etc/app/config.yaml',
      'listening on :8080',
      'ready',
    ]);
  });

  it('end with the crash in both kept instances of a CrashLoopBackOff container, and with a readiness failure for NotReady', () => {
    const { dir, logs } = setup();
    logs.started(pod('crash', { [FAULT_ANNOTATION]: 'CrashLoopBackOff' }));
    for (const i of [3, 4]) {
      expect(lines(dir, 'crash', i)).toContain('panic: runtime error: invalid memory address or nil pointer dereference');
      expect(lines(dir, 'crash', i)?.at(-1)).toBe('exit status 1');
    }
    logs.started(pod('slow', { [FAULT_ANNOTATION]: 'NotReady' }));
    expect(lines(dir, 'slow', 0)?.at(-1)).toMatch(/^readiness check failed: /);
    logs.started(pod('pull', { [FAULT_ANNOTATION]: 'ImagePullBackOff' }));
    expect(lines(dir, 'pull', 0)).toBeUndefined();
  });

  it('write numbered lines as the log-rate annotation asks, until it is removed or the pod goes', async () => {
    const { dir, logs } = setup();
    logs.started(pod('chatty', { [LOG_RATE_ANNOTATION]: '500' }));
    await eventually('numbered lines', () => lines(dir, 'chatty', 0)?.includes('log line 100'));
    const numbered = (lines(dir, 'chatty', 0) ?? []).filter((l) => l.startsWith('log line '));
    expect(numbered.slice(0, 3)).toEqual(['log line 1', 'log line 2', 'log line 3']);
    logs.started(pod('chatty'));
    const stopped = lines(dir, 'chatty', 0)?.length;
    logs.started(pod('chatty', { [LOG_RATE_ANNOTATION]: '500' }));
    // Numbering goes on where it stopped.
    await eventually('more lines', () => (lines(dir, 'chatty', 0)?.length ?? 0) > (stopped ?? 0) + 10);
    expect(lines(dir, 'chatty', 0)?.[stopped ?? 0]).toBe(`log line ${(stopped ?? 0) - 4 + 1}`);
    logs.stopped('uid-chatty');
  });
});

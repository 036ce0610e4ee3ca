import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NAMESPACE_SCRIPT, linkedRoot, namespacedCommand } from '../../../src/sandbox/sim/mount-namespace.js';

const SA = '/var/run/secrets/kubernetes.io/serviceaccount';
let dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'mountns-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('a process in its own mount namespace', () => {
  it('binds the hosts file, then each volume at its mount path (read-only when asked), then execs the command', () => {
    const line = namespacedCommand(
      '/sb/hosts',
      [
        { source: '/sb/pods/p/volumes/default-token-x', target: `${SA}/`, readOnly: true },
        { source: '/sb/pods/p/volumes/data', target: '/data', readOnly: false },
        { source: '/sb/other', target: '/', readOnly: false },
        { source: '/sb/other', target: '/etc/hosts', readOnly: false },
      ],
      '/usr/bin/node',
      ['/app/dist/cli.js', '--version'],
    );
    expect(line.file).toBe('unshare');
    expect(line.argv).toEqual([
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      NAMESPACE_SCRIPT,
      'sandbox-pod',
      '/sb/hosts',
      '/sb/pods/p/volumes/default-token-x',
      SA,
      'ro',
      '/sb/pods/p/volumes/data',
      '/data',
      'rw',
      '--',
      '/usr/bin/node',
      '/app/dist/cli.js',
      '--version',
    ]);
  });

  it('the script mounts every triple before the command (run with mount and exec echoing what they get)', () => {
    const d = tmp();
    const out = path.join(d, 'calls');
    // Stand-ins for mount and mkdir on PATH record their arguments; exec runs `echo`.
    for (const bin of ['mount', 'mkdir']) {
      fs.writeFileSync(path.join(d, bin), `#!/bin/sh\necho ${bin} "$@" >> ${out}\n`, { mode: 0o755 });
    }
    const src = path.join(d, 'vol');
    fs.mkdirSync(src);
    const r = spawnSync('sh', ['-c', NAMESPACE_SCRIPT, 'sandbox-pod', '/h', src, SA, 'ro', '--', 'echo', 'started'], {
      env: { PATH: `${d}:/usr/bin:/bin` },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('started\n');
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toEqual([
      'mount --bind /h /etc/hosts',
      `mkdir -p ${SA}`,
      `mount --bind ${src} ${SA}`,
      `mount -o remount,bind,ro ${SA}`,
    ]);
  });
});

describe('without a mount namespace', () => {
  it('lays out every mount path under a root, linked to its volume', () => {
    const d = tmp();
    const vol = path.join(d, 'vol');
    fs.mkdirSync(vol);
    for (const f of ['token', 'ca.crt', 'namespace']) fs.writeFileSync(path.join(vol, f), `${f}-content`);
    const root = linkedRoot(path.join(d, 'root'), [{ source: vol, target: SA, readOnly: true }]);
    expect(fs.readFileSync(`${root}${SA}/namespace`, 'utf8')).toBe('namespace-content');
    expect(fs.readFileSync(`${root}${SA}/ca.crt`, 'utf8')).toBe('ca.crt-content');
    // Made afresh: a second call replaces the first.
    linkedRoot(root, []);
    expect(fs.existsSync(`${root}${SA}`)).toBe(false);
  });
});

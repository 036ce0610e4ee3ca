/**
 * Facts from commands (systemctl, timedatectl, chronyc) through an injectable runner; without a
 * runner (a `--root` that is not this host) from the files that stand for them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { TimeSyncFact, Unknown } from './facts.js';
import { parseChronyTracking, parseTimedatectl } from './parse.js';
import { at, exists, unknown } from './read-files.js';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command; undefined when it does not exist. */
export type CommandRunner = (cmd: string, args: string[]) => Promise<CommandResult | undefined>;

export const execRunner: CommandRunner = (cmd, args) =>
  new Promise((resolve) => {
    execFile(cmd, args, { timeout: 5_000, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') return resolve(undefined);
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });

export async function readService(root: string, name: 'firewalld' | 'fapolicyd', runner: CommandRunner | null) {
  if (!runner) {
    const link = `etc/systemd/system/multi-user.target.wants/${name}.service`;
    let linked = false;
    try {
      linked = fs.lstatSync(at(root, link)) !== undefined;
    } catch {
      linked = false;
    }
    return { state: linked ? 'enabled' : 'not-enabled', source: `${at(root, 'etc/systemd/system/multi-user.target.wants')}` };
  }
  const r = await runner('systemctl', ['is-active', name]);
  if (!r) return unknown('systemctl is not available');
  const state = r.stdout.trim().split('\n')[0] ?? '';
  if (['active', 'inactive', 'failed', 'activating', 'deactivating', 'reloading'].includes(state))
    return { state, source: 'systemctl is-active' };
  return unknown(`systemctl is-active ${name}: ${(r.stderr.trim() || state || `exit ${r.code}`).split('\n')[0]}`);
}

export async function readTimeSync(root: string, runner: CommandRunner | null): Promise<TimeSyncFact | Unknown> {
  const tried: string[] = [];
  if (runner) {
    const t = await runner('timedatectl', ['show']);
    if (t) {
      const s = parseTimedatectl(t.stdout);
      if (s !== undefined)
        return {
          source: 'timedatectl',
          synchronized: s,
          detail: /^NTP=(\w+)$/m.exec(t.stdout)?.[1] === 'no' ? 'NTP service off' : undefined,
        };
      tried.push(`timedatectl: ${(t.stderr.trim() || 'no NTPSynchronized').split('\n')[0]}`);
    }
    const c = await runner('chronyc', ['tracking']);
    if (c) {
      const s = parseChronyTracking(c.stdout);
      if (s) return { source: 'chronyc tracking', ...s };
      tried.push(`chronyc: ${(c.stderr.trim() || 'no leap status').split('\n')[0]}`);
    }
  }
  if (exists(root, 'run/systemd/timesync/synchronized')) return { source: 'systemd-timesyncd', synchronized: true };
  if (exists(root, 'run/systemd/timesync'))
    return { source: 'systemd-timesyncd', synchronized: false, detail: `no ${at(root, 'run/systemd/timesync/synchronized')}` };
  return unknown([...tried, `no timedatectl or chronyc answer, no ${at(root, 'run/systemd/timesync')}`].join('; '));
}

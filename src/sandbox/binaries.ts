import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { Role } from './cluster.js';

export type Binaries = Record<Role, string>;

/** The script that builds or finds the binaries (shipped with the package). */
export const PREPARE_SCRIPT = path.join(PACKAGE_ROOT, 'src', 'sandbox', 'prepare-testbed.sh');

function parse(out: string): Partial<Binaries> {
  const found: Partial<Binaries> = {};
  for (const line of out.split('\n')) {
    const m = /^(etcd|kube-apiserver|kube-controller-manager|kube-scheduler)=(.+)$/.exec(line.trim());
    if (m) found[m[1] as Role] = m[2]!;
  }
  return found;
}

/**
 * Finds etcd and the Kubernetes control-plane binaries, building them from Debian's packages
 * on first use (several minutes; progress lines go to `onProgress`, the full log to `logFile`).
 */
export async function ensureBinaries(
  opts: { logFile?: string; onProgress?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<Binaries> {
  if (!fs.existsSync(PREPARE_SCRIPT)) {
    throw new UserError(`${PREPARE_SCRIPT} is missing; reinstall fleetdeck`);
  }
  const log = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
  // Its own process group, so an interrupt stops apt/make/go too, not only bash.
  const child = spawn('bash', [PREPARE_SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const kill = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  opts.signal?.addEventListener('abort', kill, { once: true });
  let out = '';
  let lastProgress = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    log?.write(d);
    for (const line of d.toString().split('\n')) {
      if (line.startsWith('fleetdeck testbed: ')) {
        lastProgress = line.slice('fleetdeck testbed: '.length);
        opts.onProgress?.(lastProgress);
      }
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  log?.end();
  opts.signal?.removeEventListener('abort', kill);
  opts.signal?.throwIfAborted();
  const found = parse(out);
  if (code !== 0 || !found.etcd || !found['kube-apiserver'] || !found['kube-controller-manager'] || !found['kube-scheduler']) {
    const where = opts.logFile ? ` (log: ${opts.logFile})` : '';
    throw new UserError(`cannot prepare the Kubernetes binaries: ${lastProgress || `exit code ${code}`}${where}`);
  }
  return found as Binaries;
}

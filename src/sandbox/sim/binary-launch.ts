import fs from 'node:fs';
import path from 'node:path';
import type { V1Container } from '@kubernetes/client-node';
import type { PodHandle } from './container.js';
import type { Launch, Launcher, Prepared } from './process-container.js';
import { auditArgs, writeAuditPolicy } from '../audit.js';
import { readinessCheck, rewriteListenArgs, sandboxDefaults } from './processes.js';

/**
 * A symlink `<clusterDir>/bin/<name>` to `target` (made or corrected), so a process started
 * through it names the sandbox on its command line (how `sandbox down` tells its processes).
 */
export function sandboxLink(clusterDir: string, name: string, target: string): string {
  const dir = path.join(clusterDir, 'bin');
  const link = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  let current: string | undefined;
  try {
    current = fs.readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current !== target) {
    fs.rmSync(link, { force: true });
    fs.symlinkSync(target, link);
  }
  return link;
}

/**
 * etcd and kube-apiserver images, run as the test bed's binaries: the pod's command and args
 * with `$(VAR)` expanded, mount paths pointing at the materialized volumes and wildcard listen
 * addresses at the pod's address. Ready while its port accepts connections.
 */
export class BinaryLauncher implements Launcher {
  constructor(
    private readonly pod: PodHandle,
    private readonly spec: V1Container,
    readonly kind: 'etcd' | 'kube-apiserver',
  ) {}

  /** The binary under the sandbox directory (a symlink), so the process's command line names the sandbox. */
  private binary(): string {
    return sandboxLink(this.pod.deps.runtime.dir, this.kind, this.pod.deps.runtime.binaries[this.kind]);
  }

  async launch({ env, expand }: Prepared): Promise<Launch> {
    const wd = this.spec.workingDir ? expand(this.spec.workingDir) : undefined;
    const cwd = wd?.startsWith(this.pod.deps.runtime.dir) && fs.existsSync(wd) ? wd : this.pod.dir;
    const command = (this.spec.command ?? []).map(expand);
    const args = (this.spec.args ?? []).map(expand);
    const bin = this.binary();
    const first = command[0];
    if (first && /^(ba)?sh$/.test(path.basename(first))) {
      // A shell script: it finds etcd/kube-apiserver on PATH (the sandbox's bin directory first).
      const argv = [...command.slice(1), ...args];
      return { file: first, argv, cwd, env, binds: [], readiness: readinessCheck(this.spec, this.kind, argv) };
    }
    const rest = first && path.basename(first) === this.kind ? command.slice(1) : command;
    let argv = rewriteListenArgs([...rest, ...args], this.pod.ip);
    argv = sandboxDefaults(this.kind, argv, this.pod.ip, this.pod.dir);
    // A control plane's API server logs every request, as the sandbox's own do (tests read who changed what).
    if (this.kind === 'kube-apiserver' && !argv.some((a) => a.startsWith('--audit-log-path'))) {
      writeAuditPolicy(this.pod.dir);
      argv = [...argv, ...auditArgs(this.pod.dir)];
    }
    return { file: bin, argv, cwd, env, binds: [], readiness: readinessCheck(this.spec, this.kind, argv) };
  }
}

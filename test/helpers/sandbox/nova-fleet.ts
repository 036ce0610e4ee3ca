/**
 * A control plane installed by `fleetdeck install` on the sandbox's hosting cluster (no workload
 * cluster), in a namespace of the test's own and with a fleet file in a temporary folder, for
 * tests that read and write the control plane's own API (backup, restore).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { type AuditEvent, readAuditEvents } from '../../../src/sandbox/audit.js';
import { readState } from '../../../src/sandbox/state.js';
import { type RunResult, runCli } from '../cli/cli.js';

export interface NovaFleet {
  namespace: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  /** fleetdeck with this fleet (its fleet file and the sandbox kubeconfig). */
  cli(args: string[], timeoutMs?: number): Promise<RunResult>;
  /** `fleetdeck install` (single replica) with `extra` flags, e.g. `--workload C1,C2`. */
  install(extra?: string[]): Promise<RunResult>;
  /** The control plane's context from the kubeconfig the install wrote. */
  cpKc(): KubeConfig;
  close(): Promise<void>;
}

export function novaFleet(kubeconfig: string, prefix: string): NovaFleet {
  const namespace = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fd-${prefix}-`));
  const env = { FLEETDECK_FLEET_FILE: path.join(dir, 'fleet.yaml') };
  const cli = (args: string[], timeoutMs = 120_000) => runCli([...args, '--kubeconfig', kubeconfig], { env, timeoutMs });
  return {
    namespace,
    dir,
    env,
    cli,
    install: (extra: string[] = []) =>
      cli(['install', '--hosting-context', 'kind-cp', '--namespace', namespace, '--no-ha', '--yes', ...extra], 600_000),
    cpKc: () => configForContext(loadKubeconfig({ kubeconfig: path.join(dir, 'nova.kubeconfig') }).config, 'nova'),
    async close() {
      await cli(['uninstall', '--hosting-context', 'kind-cp', '--namespace', namespace, '--yes', '--no-backup'], 600_000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The audit events of the control plane's API servers of `namespace` (the sandbox runs them as pods, each logging beside it). */
export function controlPlaneAuditEvents(sandboxDir: string, namespace: string, filter: { since: Date; user: string }): AuditEvent[] {
  const state = readState(sandboxDir);
  if (!state) throw new Error('no sandbox state');
  const files: string[] = [];
  for (const c of state.clusters) {
    const pods = path.join(path.dirname(c.auditLog), 'pods');
    if (!fs.existsSync(pods)) continue;
    for (const d of fs.readdirSync(pods)) {
      if (d.startsWith(`${namespace}_apiserver`) && fs.existsSync(path.join(pods, d, 'audit.log')))
        files.push(path.join(pods, d, 'audit.log'));
    }
  }
  if (files.length === 0) throw new Error(`no audit log of an API server in namespace ${namespace}`);
  return files.flatMap((f) => readAuditEvents(f, filter));
}

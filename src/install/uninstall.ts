import fs from 'node:fs';
import { forgetFleet } from '../config/fleet-config.js';
import { Applier, type Manifest } from '../kube/api/apply.js';
import { waitFor } from '../kube/watch/wait.js';
import type { CheckItem } from '../checklist/checklist.js';
import { forNamespace, loadBundle } from './bundle.js';
import { CERT_SECRET_NAMES } from './certs/index.js';
import { INIT_KUBECONFIG_SECRET } from './install.js';
import { mergeRecordPath, unmergeKubeconfigs, unmergeLines, type UnmergeResult } from './kubeconfig-unmerge.js';
import type { Target, WorkloadTarget } from './plan.js';
import { StepError, StepRunner } from './runner.js';
import { isSharedRbac, sharedRbac } from './shared-rbac.js';

export interface UninstallOptions {
  hosting: Target;
  workloads: WorkloadTarget[];
  namespace: string;
  bundleDir?: string;
  /** Files the install wrote: removed at the end (the fleet file only when it describes this fleet). */
  kubeconfigPath?: string;
  fleetFile?: string;
  /** Whether the fleet file describes this fleet (checked by the caller, who read it). */
  removeFleetFile: boolean;
  namespaceTimeoutMs?: number;
}

/**
 * The files the install wrote: first what it merged into the user's kubeconfig (per its record,
 * after a backup), then the fleet file (when it describes this fleet), the control plane's
 * kubeconfig and the record.
 */
function removeFiles(opts: UninstallOptions, result: UninstallResult): { lines: string[]; removed: string[] } {
  const record = opts.kubeconfigPath ? mergeRecordPath(opts.kubeconfigPath) : undefined;
  result.kubeconfigs = record ? unmergeKubeconfigs(record) : [];
  const removed: string[] = [];
  // The fleet file keeps the other fleets it records.
  if (opts.removeFleetFile && opts.fleetFile && fs.existsSync(opts.fleetFile)) removed.push(forgetFleet(opts.fleetFile));
  for (const f of [opts.kubeconfigPath, record]) {
    if (f && fs.existsSync(f)) {
      fs.rmSync(f);
      removed.push(f);
    }
  }
  return { lines: unmergeLines(result.kubeconfigs, false), removed };
}

export interface UninstallResult {
  ok: boolean;
  steps: CheckItem[];
  deleted: { context: string; ref: string }[];
  /** What was taken out of the kubeconfigs the install merged into. */
  kubeconfigs: UnmergeResult[];
}

/** The steps, in the reverse order of the install. */
export function uninstallSteps(opts: Pick<UninstallOptions, 'workloads'>): { id: string; label: string }[] {
  return [
    ...opts.workloads.map((w) => ({ id: `agent:${w.context}`, label: `Agent removed from ${w.clusterName} (${w.context})` })),
    { id: 'control-plane', label: 'Control plane removed' },
    { id: 'certs', label: 'Certificate Secrets removed' },
    { id: 'service', label: 'API server Service removed' },
    { id: 'namespace', label: 'Namespace removed' },
    { id: 'files', label: 'Fleet file and kubeconfigs cleaned up' },
  ];
}

type ProgressRow = { progress(d: string): void };

/** Waits until namespace `ns` is gone from `target` (finalizers done), showing its phase on the row. */
async function namespaceGone(target: Target, ns: string, row: ProgressRow, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  await waitFor<{ metadata?: { name?: string }; status?: { phase?: string } }>({
    kc: target.kc,
    path: '/api/v1/namespaces',
    fieldSelector: `metadata.name=${ns}`,
    timeoutMs,
    ...(signal ? { signal } : {}),
    check: (items) => ({
      done: items.length === 0,
      detail: items.length ? `namespace ${ns} ${items[0]?.status?.phase ?? ''}`.trim() : `namespace ${ns} gone`,
    }),
    onProgress: (d) => row.progress(d),
  }).catch((err: unknown) => {
    throw new StepError(
      `namespace ${ns} in ${target.context} still exists: ${err instanceof Error ? err.message : String(err)}`,
      `kubectl --context=${target.context} get namespace ${ns} -o yaml (look for finalizers)`,
    );
  });
}

/**
 * Reverses the install: each workload cluster's agent (its objects, the init kubeconfig
 * Secret, the namespace), then the control plane, its certificate Secrets, the API server
 * Service and the namespace — waiting until the namespaces are really gone — and finally the
 * files the install wrote and the entries it merged into the user's kubeconfig. Deleting what is already gone is not an error: it can be re-run.
 * The caller confirms first (the Service's address is lost for good).
 */
export async function runUninstall(
  opts: UninstallOptions,
  publish: (items: CheckItem[]) => void,
  signal?: AbortSignal,
): Promise<UninstallResult> {
  const runner = new StepRunner(publish);
  const result: UninstallResult = { ok: false, steps: [], deleted: [], kubeconfigs: [] };
  const ns = opts.namespace;
  const timeoutMs = opts.namespaceTimeoutMs ?? 300_000;
  const remove = async (applier: Applier, context: string, objs: Pick<Manifest, 'apiVersion' | 'kind' | 'metadata'>[]) => {
    let n = 0;
    for (const o of objs) {
      signal?.throwIfAborted();
      if (await applier.delete(o)) {
        n++;
        result.deleted.push({ context, ref: `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}` });
      }
    }
    return n;
  };
  const gone = (target: Target, row: ProgressRow) => namespaceGone(target, ns, row, timeoutMs, signal);
  const nsObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } };

  runner.plan(uninstallSteps(opts));
  try {
    const bundle = await loadBundle(opts.bundleDir);
    const hosting = new Applier(opts.hosting.kc);
    for (const w of opts.workloads) {
      await runner.run(`agent:${w.context}`, async (row) => {
        const a = new Applier(w.kc);
        const objs = forNamespace(bundle.agent, ns);
        const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: INIT_KUBECONFIG_SECRET, namespace: ns } };
        const shared = await sharedRbac(
          a,
          objs.filter((o) => isSharedRbac(o.kind)),
          ns,
        );
        const n = await remove(a, w.context, [...objs.filter((o) => !isSharedRbac(o.kind)), ...shared.remove, secret, nsObject]);
        await gone(w, row);
        return `${n} objects deleted; namespace ${ns} gone${shared.kept ? `; ${shared.kept}` : ''}`;
      });
    }
    await runner.run('control-plane', async () => {
      const objs = forNamespace(bundle.controlPlane, ns);
      return `${await remove(hosting, opts.hosting.context, objs)} objects deleted`;
    });
    await runner.run('certs', async () => {
      const secrets = CERT_SECRET_NAMES.map((name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns } }));
      return `${await remove(hosting, opts.hosting.context, secrets)} Secrets deleted`;
    });
    await runner.run('service', async () => {
      const [svc] = forNamespace([bundle.service], ns);
      return (await remove(hosting, opts.hosting.context, [svc!]))
        ? `${svc!.metadata.name} deleted (its address is released)`
        : 'already gone';
    });
    await runner.run('namespace', async (row) => {
      await remove(hosting, opts.hosting.context, [nsObject]);
      await gone(opts.hosting, row);
      return `${ns} gone from ${opts.hosting.context}`;
    });
    await runner.run('files', async () => {
      const { lines, removed } = removeFiles(opts, result);
      return [...lines, removed.length ? `removed ${removed.join(', ')}` : 'no file to remove'].join('; ');
    });
    result.ok = true;
  } catch {
    result.ok = false;
  } finally {
    runner.stop();
    result.steps = runner.items();
  }
  return result;
}

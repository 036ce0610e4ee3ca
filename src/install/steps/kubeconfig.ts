import fs from 'node:fs';
import path from 'node:path';
import { adminKubeconfig } from '../certs/index.js';
import { mergeKubeconfigFile } from '../kubeconfig-file.js';
import { mergeRecordPath, recordMerge } from '../kubeconfig-unmerge.js';
import type { InstallRun } from './run.js';

/** The control plane's kubeconfig written (0600, replaced atomically), and merged into the user's when asked (what it added recorded beside it). */
export async function kubeconfigStep(run: InstallRun): Promise<string> {
  const { opts } = run;
  fs.mkdirSync(path.dirname(opts.kubeconfigPath), { recursive: true });
  const tmp = `${opts.kubeconfigPath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, adminKubeconfig(run.certs!, run.server, opts.controlPlaneContext), { mode: 0o600 });
  fs.renameSync(tmp, opts.kubeconfigPath);
  run.result.kubeconfigPath = opts.kubeconfigPath;
  if (!opts.mergeKubeconfig) return `context ${opts.controlPlaneContext} in ${opts.kubeconfigPath}`;
  const merged = mergeKubeconfigFile(opts.mergeKubeconfig, opts.kubeconfigPath);
  // What was added is recorded, so that the uninstall removes it again (and only it).
  recordMerge(mergeRecordPath(opts.kubeconfigPath), opts.mergeKubeconfig, merged.added);
  return `context ${opts.controlPlaneContext} in ${opts.kubeconfigPath}; ${merged.line}`;
}

import fs from 'node:fs';
import { DEFAULT_NAMESPACE, fleetFileMention, fleetFilePath, readFleetFile } from '../config/fleet-config.js';
import { UsageError } from '../errors.js';
import { loadBundle } from '../install/bundle.js';
import { runInstall, type InstallResult } from '../install/install.js';
import { DEFAULT_TOPOLOGY_KEY, DEFAULT_VALIDITY_DAYS, type InstallOptions } from '../install/plan.js';
import type { PrecheckResult } from '../install/prechecks/index.js';
import { mergeRecordPath, unmergeKubeconfigs, unmergeLines } from '../install/kubeconfig-unmerge.js';
import { runUninstall, uninstallSteps } from '../install/uninstall.js';
import { formatChecklist } from '../checklist/checklist.js';
import { asciiOnly, requireOutput } from '../session/options.js';
import { confirm, confirmTyped, interactive } from '../session/prompt.js';
import { startSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';
import { INSTALL_WRITES } from '../store/install.js';
import { lineReporter, write } from './install/lines.js';
import { backupBeforeUninstall, backupPlanLine, uninstallBackupPath, type UninstallBackup } from './install/uninstall-backup.js';
import { controlPlaneKubeconfigPath, fleetStatusCheck, resolve, type InstallCommandOptions, type Resolved } from './install/resolve.js';
import { runWizard } from './install/wizard.js';
import { prechecksFor } from '../install/prechecks/index.js';
import { document, type OutputFormat } from '../output/format.js';
import { bundleLines, referenceWarning } from '../install/bundle-summary.js';
import { asksAboutReference, bundlePlan, type BundlePlan } from '../install/bundle-plan.js';

export { controlPlaneKubeconfigPath, type InstallCommandOptions } from './install/resolve.js';

function installOptions(opts: InstallCommandOptions, r: Resolved, fleetFile: string): InstallOptions {
  return {
    hosting: r.hosting,
    workloads: r.workloads,
    namespace: r.namespace,
    ha: opts.ha !== false,
    topologyKey: opts.topologyKey ?? DEFAULT_TOPOLOGY_KEY,
    validityDays: opts.certValidityDays ?? DEFAULT_VALIDITY_DAYS,
    ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
    rotateCerts: opts.rotateCerts === true,
    dryRun: opts.dryRun === true,
    controlPlaneContext: r.controlPlaneContext,
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, r.controlPlaneContext),
    ...(opts.mergeKubeconfig && r.loaded.files[0] ? { mergeKubeconfig: r.loaded.files[0] } : {}),
    fleetFile,
    kubeconfigFiles: r.loaded.files,
  };
}

function printPlan(o: InstallOptions, plan: BundlePlan, rotateCerts: boolean): void {
  write('');
  write(
    `Plan: install the control plane into ${o.hosting.context}, namespace ${o.namespace}, ${o.ha ? `HA (3 replicas spread by ${o.topologyKey})` : 'single replica'},`,
  );
  write(`      certificates valid ${o.validityDays} days${rotateCerts ? ' (all regenerated: --rotate-certs)' : ''};`);
  write(
    `      connect ${o.workloads.length ? o.workloads.map((w) => `${w.clusterName} (${w.context})`).join(', ') : 'no workload cluster'}; kubeconfig context ${o.controlPlaneContext} in ${o.kubeconfigPath}.`,
  );
  for (const line of bundleLines(plan)) write(line);
  if (asksAboutReference(plan)) write(`Note: ${referenceWarning(plan.notSandbox)}.`);
}

/** The install confirmed: --dry-run or --yes, else a y/N question on the terminal. */
async function confirmed(opts: InstallCommandOptions, checks: PrecheckResult, plan: BundlePlan): Promise<boolean> {
  if (opts.dryRun || opts.yes) return true;
  const reference = asksAboutReference(plan) ? plan.notSandbox : undefined;
  if (!interactive()) {
    throw new UsageError(
      reference
        ? `install would put the reference bundle on ${reference.join(', ')}, not the fleetdeck sandbox: confirm with --yes, or pass --bundle DIR with a Nova release's install/ directory`
        : 'install changes clusters: confirm with --yes (or look first with --dry-run)',
    );
  }
  const warned = checks.warnings ? ' despite the warnings above' : '';
  if (await confirm(reference ? `Install the reference bundle on ${reference.join(', ')}${warned}?` : `Install${warned}?`)) return true;
  write('Nothing was changed.');
  return false;
}

/** The steps, live; Ctrl-C, SIGTERM or SIGHUP stops them where they are (the same command again continues). */
function runSteps(o: InstallOptions, publish: Parameters<typeof runInstall>[1]): Promise<InstallResult> {
  return runInstall(o, publish, fleetStatusCheck, runSignal());
}

function printResult(output: OutputFormat, o: InstallOptions, plan: BundlePlan, checks: PrecheckResult, result: InstallResult): void {
  if (output !== 'text') {
    const json = {
      ok: result.ok,
      dryRun: o.dryRun,
      bundle: plan,
      prechecks: checks.items,
      steps: result.steps,
      address: result.address ?? null,
      kubeconfig: result.kubeconfigPath ?? null,
      objects: result.applied,
      status: result.status ?? null,
    };
    write(document(output, json));
  } else if (o.dryRun) {
    write('\nObjects:');
    for (const obj of result.applied)
      write(
        `  ${obj.context}: ${obj.ref} ${obj.action === 'created' ? 'would be created' : obj.action === 'configured' ? 'would change' : 'unchanged'}`,
      );
  } else if (result.ok) {
    write(`\nInstalled. The fleet is recorded in ${o.fleetFile}; fleetdeck status shows it.`);
  } else {
    write('\nThe install stopped. Fix what the failed row says and run the same command again: it continues where it stopped.');
  }
}

/**
 * `fleetdeck install`: checks, then (confirmed, or --yes) installs the control plane into the
 * hosting context and connects every workload context, printing each step as it changes.
 * Exit 0 when everything is done (or the dry run is complete), 1 when a check or step failed,
 * 2 for usage errors.
 */
export async function runInstallCommand(opts: InstallCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const session = startSession(opts, { creatingFleet: true });
  if (!opts.dryRun) session.assertWritable(INSTALL_WRITES, ' (use --dry-run to see what it would do)');
  const fleetFile = fleetFilePath();
  if (interactive() && opts.output === undefined && !opts.yes && !opts.dryRun && !process.env.CI) return runWizard(opts, fleetFile);
  const r = resolve(session, opts, fleetFile, false);
  if (opts.bundle !== undefined && !fs.existsSync(opts.bundle)) throw new UsageError(`bundle directory ${opts.bundle} does not exist`);
  const bundle = await loadBundle(opts.bundle);
  const installOpts = installOptions(opts, r, fleetFile);
  const plan = bundlePlan(bundle, [r.hosting, ...r.workloads], r.loaded.files);
  const text = output === 'text';

  // 1. Prerequisite checks: failures block, warnings ask.
  if (text)
    write(
      `Checking prerequisites (hosting ${r.hosting.context}${r.workloads.length ? `, workloads ${r.workloads.map((w) => w.context).join(', ')}` : ''})`,
    );
  const checks = await prechecksFor(installOpts, bundle);
  if (text) write(formatChecklist(checks.items, { ascii }));
  if (checks.blocking) {
    if (output !== 'text') write(document(output, { ok: false, bundle: plan, prechecks: checks.items, steps: [] }));
    else write('Prerequisites not met: nothing was changed.');
    return 1;
  }

  // 2. The plan, confirmed.
  if (text) printPlan(installOpts, plan, opts.rotateCerts === true);
  else if (asksAboutReference(plan)) process.stderr.write(`fleetdeck: note: ${referenceWarning(plan.notSandbox)}\n`);
  if (!(await confirmed(opts, checks, plan))) return 1;

  // 3. The steps, live.
  if (text) write(opts.dryRun ? '\nDry run (nothing is changed):' : '');
  const result = await runSteps(installOpts, text ? lineReporter(ascii) : () => {});
  printResult(output, installOpts, plan, checks, result);
  return result.ok ? 0 : 1;
}

/** The files the uninstall removes, and what it takes out of the kubeconfigs the install merged into (nothing changes). */
function uninstallFilesLines(fleetFile: string, kubeconfigPath: string, removeFleetFile: boolean): string[] {
  const files = [removeFleetFile ? fleetFile : undefined, kubeconfigPath, mergeRecordPath(kubeconfigPath)]
    .filter((f): f is string => f !== undefined && fs.existsSync(f))
    .map((f) => (f === fleetFile ? fleetFileMention(f) : f));
  const merged = unmergeLines(unmergeKubeconfigs(mergeRecordPath(kubeconfigPath), { dryRun: true }), true);
  return [...merged.map((l) => `Kubeconfig: ${l}.`), files.length ? `Files: would remove ${files.join(', ')}.` : 'Files: none to remove.'];
}

/** `fleetdeck uninstall`: removes what install created, after a typed confirmation (or --yes); --dry-run says what it would do. */
export async function runUninstallCommand(opts: InstallCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  const session = startSession(opts);
  if (!opts.dryRun) session.assertWritable('uninstall deletes from clusters', ' (use --dry-run to see what it would do)');
  const fleetFile = fleetFilePath();
  const r = resolve(session, opts, fleetFile, true);
  const file = readFleetFile(fleetFile);
  const removeFleetFile = file?.hostingContext === r.hosting.context && (file.namespace ?? DEFAULT_NAMESPACE) === r.namespace;
  const kubeconfigPath = controlPlaneKubeconfigPath(fleetFile, r.controlPlaneContext);
  const text = output === 'text';
  const steps = uninstallSteps(r).map((s) => ({ ...s, state: 'pending' as const }));
  const backupFile = opts.backup === false ? undefined : uninstallBackupPath(fleetFile, r.controlPlaneContext);
  if (text) {
    write(
      `Plan: remove the control plane from ${r.hosting.context} (namespace ${r.namespace}) and the agents from ${r.workloads.map((w) => w.context).join(', ') || 'no workload cluster'}:`,
    );
    write(formatChecklist(steps, { ascii }));
    for (const line of uninstallFilesLines(fleetFile, kubeconfigPath, removeFleetFile)) write(line);
    write(backupPlanLine(backupFile, opts.dryRun === true));
    write(`Deleting the API server Service releases its address for good: a new install gets a new address and new certificates.`);
  }
  if (opts.dryRun) {
    const kubeconfigs = unmergeKubeconfigs(mergeRecordPath(kubeconfigPath), { dryRun: true });
    if (output !== 'text')
      write(
        document(output, { ok: true, dryRun: true, steps, deleted: [], kubeconfigs, backup: backupFile ? { file: backupFile } : null }),
      );
    else write('\nDry run: nothing was changed.');
    return 0;
  }
  if (!opts.yes) {
    if (!interactive()) throw new UsageError('uninstall deletes the control plane: confirm with --yes (or look first with --dry-run)');
    const backupSay = backupFile ? 'after a backup (the file above)' : 'without a backup (--no-backup)';
    if (!(await confirmTyped(`Type the namespace (${r.namespace}) to delete it all, ${backupSay}: `, r.namespace))) {
      write('Nothing was changed.');
      return 1;
    }
  }
  const backup: UninstallBackup | undefined = backupFile
    ? await backupBeforeUninstall(session, r.controlPlaneContext, kubeconfigPath, backupFile, text ? write : () => {})
    : undefined;
  const result = await runUninstall(
    {
      hosting: r.hosting,
      workloads: r.workloads,
      namespace: r.namespace,
      ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
      kubeconfigPath,
      fleetFile,
      removeFleetFile,
    },
    text ? lineReporter(ascii) : () => {},
  );
  if (output !== 'text')
    write(
      document(output, {
        ok: result.ok,
        steps: result.steps,
        deleted: result.deleted,
        kubeconfigs: result.kubeconfigs,
        backup: backup ?? null,
      }),
    );
  else write(result.ok ? '\nUninstalled.' : '\nThe uninstall stopped; run it again once the failed row is fixed.');
  return result.ok ? 0 : 1;
}

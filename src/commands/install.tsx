import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { DEFAULT_CONTROL_PLANE_CONTEXT, DEFAULT_NAMESPACE, fleetFilePath, readFleetFile } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { configForContext, contextInfos, loadKubeconfig, type LoadedKubeconfig } from '../kube/kubeconfig.js';
import { loadBundle, requiredPermissions } from '../install/bundle.js';
import { runInstall, type InstallResult } from '../install/install.js';
import { DEFAULT_TOPOLOGY_KEY, DEFAULT_VALIDITY_DAYS, type InstallOptions, type Target, type WorkloadTarget } from '../install/plan.js';
import { runPrechecks } from '../install/prechecks/index.js';
import { runUninstall, uninstallSteps } from '../install/uninstall.js';
import { ChecklistDiff } from '../report/watch-lines.js';
import { formatChecklist, type CheckItem } from '../checklist/checklist.js';
import { clock } from '../store/selectors.js';
import { render, type Instance } from 'ink';
import { colorAllowed, UiProvider } from '../components/theme/index.js';
import { InstallWizard, type InstallerDeps } from '../screens/install/wizard.js';
import type { WizardChoices } from '../screens/install/use-wizard-state.js';
import { asciiOnly, colorEnabled, requireOutput, type GlobalOptions } from '../session/options.js';
import { assertWritable } from '../kube/gate.js';

export interface InstallCommandOptions extends GlobalOptions {
  workload?: string[];
  ha?: boolean;
  topologyKey?: string;
  bundle?: string;
  dryRun?: boolean;
  yes?: boolean;
  rotateCerts?: boolean;
  certValidityDays?: number;
  mergeKubeconfig?: boolean;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The control plane's kubeconfig, next to the fleet file: `<config dir>/fleetdeck/<context>.kubeconfig`. */
export function controlPlaneKubeconfigPath(fleetFile: string, context: string): string {
  return path.join(path.dirname(fleetFile), `${context}.kubeconfig`);
}

interface Resolved {
  loaded: LoadedKubeconfig;
  hosting: Target;
  workloads: WorkloadTarget[];
  namespace: string;
  controlPlaneContext: string;
}

/** `--workload C1,C2=name2`: contexts, optionally with the cluster name they register under. */
function parseWorkloads(values: string[] | undefined): { context: string; clusterName: string }[] {
  const out: { context: string; clusterName: string }[] = [];
  for (const v of (values ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean)) {
    const [context = '', clusterName = context] = v.split('=');
    if (!NAME.test(clusterName)) throw new UsageError(`cluster name "${clusterName}" (from --workload ${v}) is not a valid name (lower-case letters, digits and -)`);
    if (out.some((w) => w.context === context)) throw new UsageError(`workload context "${context}" is given twice`);
    out.push({ context, clusterName });
  }
  return out;
}

function resolve(opts: InstallCommandOptions, fleetFile: string, forUninstall: boolean): Resolved {
  const namespace = opts.namespace ?? DEFAULT_NAMESPACE;
  if (!NAME.test(namespace)) throw new UsageError(`"${namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  const file = forUninstall ? readFleetFile(fleetFile) : undefined;
  const hostingName = opts.hostingContext ?? file?.hostingContext;
  if (!hostingName) throw new UsageError(`${forUninstall ? 'uninstall' : 'install'} needs --hosting-context (the context of the cluster that hosts the control plane)`);
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig });
  const known = new Set(contextInfos(loaded.config).map((c) => c.name));
  const check = (name: string, flag: string) => {
    if (!known.has(name)) throw new UserError(`context "${name}" (${flag}) is not in the kubeconfig (${loaded.files.join(', ') || 'none found'}); check the name or --kubeconfig`, 2);
  };
  check(hostingName, '--hosting-context');
  let workloads = parseWorkloads(opts.workload);
  if (forUninstall && workloads.length === 0 && file?.hostingContext === hostingName) {
    workloads = (file.workloads ?? []).map((w) => (typeof w === 'string' ? { context: w, clusterName: w } : { context: w.context, clusterName: w.clusterName ?? w.context }));
  }
  for (const w of workloads) check(w.context, '--workload');
  if (workloads.some((w) => w.context === hostingName)) throw new UsageError(`"${hostingName}" is the hosting context; a workload cluster must be another context`);
  return {
    loaded,
    hosting: { context: hostingName, kc: configForContext(loaded.config, hostingName) },
    workloads: workloads.map((w) => ({ ...w, kc: configForContext(loaded.config, w.context) })),
    namespace,
    controlPlaneContext: opts.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT,
  };
}

/** Prints each row when its state or detail changes (elapsed time alone is not a change). */
function lineReporter(ascii: boolean): (items: CheckItem[]) => void {
  const diff = new ChecklistDiff();
  const still = (items: CheckItem[]): CheckItem[] =>
    items.map((i) => {
      const { elapsedMs, ...rest } = i;
      const out: CheckItem = i.state === 'running' ? rest : { ...rest, ...(elapsedMs !== undefined ? { elapsedMs } : {}) };
      if (i.children) out.children = still(i.children);
      return out;
    });
  return (items) => {
    for (const line of diff.next(still(items), ascii)) {
      if (line.item.state === 'pending') continue;
      write(`${clock(Date.now())} ${line.text}`);
      if (line.item.hint && line.item.state !== 'ok') write(`         ${line.item.hint}`);
    }
  };
}

async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

const interactive = () => process.stdin.isTTY === true && process.stdout.isTTY === true;

/**
 * `fleetdeck install`: checks, then (confirmed, or --yes) installs the control plane into the
 * hosting context and connects every workload context, printing each step as it changes.
 * Exit 0 when everything is done (or the dry run is complete), 1 when a check or step failed,
 * 2 for usage errors.
 */
export async function runInstallCommand(opts: InstallCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  if (!opts.dryRun) assertWritable('install changes clusters', ' (use --dry-run to see what it would do)');
  const fleetFile = fleetFilePath();
  if (interactive() && opts.output === undefined && !opts.yes && !opts.dryRun && !process.env.CI) return runWizard(opts, fleetFile);
  const r = resolve(opts, fleetFile, false);
  const topologyKey = opts.topologyKey ?? DEFAULT_TOPOLOGY_KEY;
  const ha = opts.ha !== false;
  if (opts.bundle !== undefined && !fs.existsSync(opts.bundle)) throw new UsageError(`bundle directory ${opts.bundle} does not exist`);
  const bundle = await loadBundle(opts.bundle);
  const installOpts: InstallOptions = {
    hosting: r.hosting,
    workloads: r.workloads,
    namespace: r.namespace,
    ha,
    topologyKey,
    validityDays: opts.certValidityDays ?? DEFAULT_VALIDITY_DAYS,
    ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
    rotateCerts: opts.rotateCerts === true,
    dryRun: opts.dryRun === true,
    controlPlaneContext: r.controlPlaneContext,
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, r.controlPlaneContext),
    ...(opts.mergeKubeconfig && r.loaded.files[0] ? { mergeKubeconfig: r.loaded.files[0] } : {}),
    fleetFile,
  };
  const text = output === 'text';

  // 1. Prerequisite checks: failures block, warnings ask.
  if (text) write(`Checking prerequisites (hosting ${r.hosting.context}${r.workloads.length ? `, workloads ${r.workloads.map((w) => w.context).join(', ')}` : ''})`);
  const checks = await runPrechecks({
    hosting: { name: r.hosting.context, kc: r.hosting.kc },
    workloads: r.workloads.map((w) => ({ name: w.context, kc: w.kc })),
    namespace: r.namespace,
    ha,
    topologyKey,
    permissions: requiredPermissions(bundle, r.namespace),
  });
  if (text) write(formatChecklist(checks.items, { ascii }));
  if (checks.blocking) {
    if (output === 'json') write(JSON.stringify({ ok: false, prechecks: checks.items, steps: [] }, null, 2));
    else write('Prerequisites not met: nothing was changed.');
    return 1;
  }

  // 2. The plan, confirmed.
  if (text) {
    write('');
    write(`Plan: install the control plane into ${r.hosting.context}, namespace ${r.namespace}, ${ha ? `HA (3 replicas spread by ${topologyKey})` : 'single replica'},`);
    write(`      certificates valid ${installOpts.validityDays} days${opts.rotateCerts ? ' (all regenerated: --rotate-certs)' : ''}, bundle ${bundle.source};`);
    write(`      connect ${r.workloads.length ? r.workloads.map((w) => `${w.clusterName} (${w.context})`).join(', ') : 'no workload cluster'}; kubeconfig context ${r.controlPlaneContext} in ${installOpts.kubeconfigPath}.`);
  }
  if (!opts.dryRun && !opts.yes) {
    if (!interactive()) throw new UsageError('install changes clusters: confirm with --yes (or look first with --dry-run)');
    const warned = checks.warnings ? ' despite the warnings above' : '';
    const answer = await ask(`Install${warned}? [y/N] `);
    if (!/^y(es)?$/i.test(answer)) {
      write('Nothing was changed.');
      return 1;
    }
  }

  // 3. The steps, live.
  if (text) write(opts.dryRun ? '\nDry run (nothing is changed):' : '');
  const abort = new AbortController();
  const onSigint = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  let result: InstallResult;
  try {
    result = await runInstall(installOpts, text ? lineReporter(ascii) : () => {}, abort.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (output === 'json') {
    write(JSON.stringify({ ok: result.ok, dryRun: installOpts.dryRun, prechecks: checks.items, steps: result.steps, address: result.address ?? null, kubeconfig: result.kubeconfigPath ?? null, objects: result.applied, status: result.status ?? null }, null, 2));
  } else {
    if (opts.dryRun) {
      write('\nObjects:');
      for (const o of result.applied) write(`  ${o.context}: ${o.ref} ${o.action === 'created' ? 'would be created' : o.action === 'configured' ? 'would change' : 'unchanged'}`);
    } else if (result.ok) {
      write(`\nInstalled. The fleet is recorded in ${fleetFile}; fleetdeck status shows it.`);
    } else {
      write('\nThe install stopped. Fix what the failed row says and run the same command again: it continues where it stopped.');
    }
  }
  return result.ok ? 0 : 1;
}

/** `fleetdeck uninstall`: removes what install created, after a typed confirmation (or --yes). */
export async function runUninstallCommand(opts: InstallCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const ascii = asciiOnly(opts);
  assertWritable('uninstall deletes from clusters');
  const fleetFile = fleetFilePath();
  const r = resolve(opts, fleetFile, true);
  const file = readFleetFile(fleetFile);
  const removeFleetFile = file?.hostingContext === r.hosting.context && (file.namespace ?? DEFAULT_NAMESPACE) === r.namespace;
  const text = output === 'text';
  if (text) {
    write(`Plan: remove the control plane from ${r.hosting.context} (namespace ${r.namespace}) and the agents from ${r.workloads.map((w) => w.context).join(', ') || 'no workload cluster'}:`);
    write(formatChecklist(uninstallSteps(r).map((s) => ({ ...s, state: 'pending' as const })), { ascii }));
    write(`Deleting the API server Service releases its address for good: a new install gets a new address and new certificates.`);
  }
  if (!opts.yes) {
    if (!interactive()) throw new UsageError('uninstall deletes the control plane: confirm with --yes');
    const answer = await ask(`Type the namespace (${r.namespace}) to delete it all: `);
    if (answer !== r.namespace) {
      write('Nothing was changed.');
      return 1;
    }
  }
  const result = await runUninstall(
    {
      hosting: r.hosting,
      workloads: r.workloads,
      namespace: r.namespace,
      ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
      kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, r.controlPlaneContext),
      fleetFile,
      removeFleetFile,
    },
    text ? lineReporter(ascii) : () => {},
  );
  if (output === 'json') write(JSON.stringify({ ok: result.ok, steps: result.steps, deleted: result.deleted }, null, 2));
  else {
    write(result.ok ? '\nUninstalled.' : '\nThe uninstall stopped; run it again once the failed row is fixed.');
  }
  return result.ok ? 0 : 1;
}


/**
 * What the wizard needs, bound to the kubeconfig and the flags (which become its pages'
 * defaults): the contexts, and the checks and the install as functions of the choices.
 * Used by `fleetdeck install` in a terminal and by the dashboard's Install tab.
 */
export async function wizardDeps(opts: InstallCommandOptions, loaded: LoadedKubeconfig, fleetFile: string = fleetFilePath()): Promise<InstallerDeps> {
  const contexts = contextInfos(loaded.config).map((c) => c.name);
  const workloads = parseWorkloads(opts.workload);
  const initial: Partial<WizardChoices> = {
    ...(opts.hostingContext ? { hosting: opts.hostingContext } : {}),
    ...(opts.namespace ? { namespace: opts.namespace } : {}),
    ...(workloads.length ? { workloads: workloads.map((w) => w.context), clusterNames: Object.fromEntries(workloads.map((w) => [w.context, w.clusterName])) } : {}),
    ha: opts.ha !== false,
    ...(opts.topologyKey ? { topologyKey: opts.topologyKey } : {}),
    ...(opts.certValidityDays ? { validityYears: Math.max(1, Math.round(opts.certValidityDays / 365)) } : {}),
  };
  const target = (context: string): Target => ({ context, kc: configForContext(loaded.config, context) });
  const controlPlaneContext = opts.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT;
  const optionsFor = (c: WizardChoices): InstallOptions => ({
    hosting: target(c.hosting!),
    workloads: c.workloads.map((w) => ({ ...target(w), clusterName: c.clusterNames[w] ?? w })),
    namespace: c.namespace,
    ha: c.ha,
    topologyKey: c.topologyKey,
    validityDays: c.validityYears * 365,
    ...(opts.bundle ? { bundleDir: opts.bundle } : {}),
    rotateCerts: opts.rotateCerts === true,
    dryRun: false,
    controlPlaneContext,
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, controlPlaneContext),
    ...(c.mergeKubeconfig && loaded.files[0] ? { mergeKubeconfig: loaded.files[0] } : {}),
    fleetFile,
  });
  const bundle = await loadBundle(opts.bundle);
  return {
    contexts,
    initial: { ...initial, mergeKubeconfig: opts.mergeKubeconfig === true },
    kubeconfigPath: controlPlaneKubeconfigPath(fleetFile, controlPlaneContext),
    ...(loaded.files[0] ? { userKubeconfig: loaded.files[0] } : {}),
    runChecks: async (c, onProgress) => {
      const o = optionsFor(c);
      return runPrechecks(
        {
          hosting: { name: o.hosting.context, kc: o.hosting.kc },
          workloads: o.workloads.map((w) => ({ name: w.context, kc: w.kc })),
          namespace: o.namespace,
          ha: o.ha,
          topologyKey: o.topologyKey,
          permissions: requiredPermissions(bundle, o.namespace),
        },
        onProgress,
      );
    },
    runInstall: (c, onProgress, signal) => runInstall(optionsFor(c), onProgress, signal),
  };
}

/** The wizard on its own (a terminal, no -o/--yes/--dry-run). */
async function runWizard(opts: InstallCommandOptions, fleetFile: string): Promise<number> {
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig });
  if (contextInfos(loaded.config).length === 0) {
    throw new UserError(`no contexts in the kubeconfig (${loaded.files.join(', ') || 'none found'}); pass --kubeconfig, or start the sandbox: fleetdeck sandbox up`, 2);
  }
  const deps = await wizardDeps(opts, loaded, fleetFile);
  const abort = new AbortController();
  return new Promise<number>((resolvePromise) => {
    let app: Instance | undefined;
    const exit = (code: number) => {
      abort.abort(new Error('cancelled'));
      app?.unmount();
      resolvePromise(code);
    };
    app = render(
      <UiProvider value={{ ascii: asciiOnly(opts), color: colorAllowed(colorEnabled(opts)) }}>
        <InstallWizard
          {...deps}
          readOnly={opts.readOnly === true}
          width={Math.max(40, (process.stdout.columns ?? 80) - 1)}
          height={Math.max(12, (process.stdout.rows ?? 24) - 1)}
          runInstall={(c, onProgress) => deps.runInstall(c, onProgress, abort.signal)}
          onExit={exit}
        />
      </UiProvider>,
      { exitOnCtrlC: false, maxFps: 12 },
    );
  });
}

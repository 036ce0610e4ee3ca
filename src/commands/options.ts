import { fleetContextNames, fleetFilePath, readFleetFile, resolveFleet } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { contextInfos, loadKubeconfig, selectContexts, type LoadedKubeconfig } from '../kube/kubeconfig.js';
import type { ContextInfo } from '../kube/kubeconfig.js';
import type { FleetConfig } from '../kube/fleet.js';

/** Options every command understands (commander's optsWithGlobals). */
export interface GlobalOptions {
  kubeconfig?: string;
  context?: string[];
  output?: 'text' | 'json';
  readOnly?: boolean;
  color?: boolean;
  ascii?: boolean;
  sandbox?: boolean;
  hostingContext?: string;
  controlPlaneContext?: string;
  namespace?: string;
  watch?: boolean;
}

export interface Selection extends LoadedKubeconfig {
  /** The contexts to watch (with a fleet: those of its contexts the kubeconfig has). */
  contexts: ContextInfo[];
  fleet?: FleetConfig;
}

/**
 * The kubeconfig files, contexts and fleet a command works on. A fleet comes from the fleet
 * file and the flags (flags win); without one, `--context` picks contexts as in kubectl.
 * `useFleetFile: false` ignores the file (the sandbox fleet has none of its own).
 */
export function selection(opts: GlobalOptions, { useFleetFile = true } = {}): Selection {
  if (opts.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.namespace)) {
    throw new UsageError(`"${opts.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  }
  const file = useFleetFile ? fleetFilePath() : undefined;
  const fleetFile = file ? readFleetFile(file) : undefined;
  // The control plane's kubeconfig the install wrote is read after the user's (theirs wins).
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig, ...(fleetFile?.kubeconfig ? { extra: [fleetFile.kubeconfig] } : {}) });
  const fleet = resolveFleet(fleetFile, opts);
  if (!fleet) {
    if (opts.controlPlaneContext || opts.namespace) {
      throw new UsageError('--control-plane-context and --namespace describe a fleet: pass --hosting-context too (or define the fleet file)');
    }
    return { ...loaded, contexts: selectContexts(loaded.config, opts.context ?? []) };
  }
  const known = new Set(contextInfos(loaded.config).map((c) => c.name));
  const from = opts.hostingContext ? '--hosting-context' : `the fleet file ${file}`;
  if (!known.has(fleet.hostingContext)) {
    throw new UserError(`hosting context "${fleet.hostingContext}" (from ${from}) is not in the kubeconfig; check --hosting-context or --kubeconfig`, 2);
  }
  for (const w of fleet.workloads) {
    if (!known.has(w.context)) {
      throw new UserError(`workload context "${w.context}" is not in the kubeconfig; check --context, the fleet file or --kubeconfig`, 2);
    }
  }
  // The control plane's context may not exist yet (before the install): the checklist says so.
  const names = fleetContextNames(fleet).filter((n) => known.has(n));
  return { ...loaded, fleet, contexts: selectContexts(loaded.config, names) };
}

/** Colours are off with --no-color, NO_COLOR (any value) or a dumb terminal. */
export function colorEnabled(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return opts.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== undefined) && env.TERM !== 'dumb';
}

/** ASCII symbols with --ascii, or when the locale is not UTF-8. */
export function asciiOnly(opts: GlobalOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  if (opts.ascii) return true;
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return locale !== '' && !/utf-?8/i.test(locale) && locale !== 'C.UTF-8';
}

export function requireOutput(value: string | undefined): 'text' | 'json' {
  if (value === undefined || value === 'text') return 'text';
  if (value === 'json') return 'json';
  throw new UsageError(`unknown output format "${value}"; use -o text or -o json`);
}

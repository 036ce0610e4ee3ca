/**
 * One session per run, built here and nowhere else: the kubeconfig files, one KubeConfig per
 * context, the fleet, the contexts on screen and the read-only gate. Every command and every
 * tab takes its clusters from it.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { fleetContextNames, fleetFilePath, readFleetFile, resolveFleet } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import { credentialsProblem } from '../kube/transport/credentials.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import {
  contextConfigs,
  contextInfos,
  loadKubeconfig,
  selectContexts,
  type ContextInfo,
  type LoadedKubeconfig,
} from '../kube/config/kubeconfig.js';
import type { GlobalOptions } from './options.js';

export interface Session extends LoadedKubeconfig {
  /** The contexts to watch (with a fleet: those of its contexts the kubeconfig has). */
  contexts: ContextInfo[];
  fleet?: FleetConfig;
  readOnly: boolean;
  /** This context's own KubeConfig (made once per context). */
  kc(context: string): KubeConfig;
}

export interface OneContext {
  context: string;
  kc: KubeConfig;
}

/** The kubeconfig's context, or the one-line error every command gives for an unknown one (exit 2). */
function known(loaded: LoadedKubeconfig, context: string): void {
  const names = contextInfos(loaded.config).map((c) => c.name);
  if (!names.includes(context)) {
    throw new UserError(
      `context "${context}" is not in the kubeconfig (known: ${names.join(', ') || 'none'}); check --context or --kubeconfig`,
      2,
    );
  }
}

function fleetSession(opts: GlobalOptions, loaded: LoadedKubeconfig, fleet: FleetConfig, file: string | undefined): ContextInfo[] {
  const names = new Set(contextInfos(loaded.config).map((c) => c.name));
  const from = opts.hostingContext ? '--hosting-context' : `the fleet file ${file}`;
  if (!names.has(fleet.hostingContext)) {
    throw new UserError(
      `hosting context "${fleet.hostingContext}" (from ${from}) is not in the kubeconfig; check --hosting-context or --kubeconfig`,
      2,
    );
  }
  for (const w of fleet.workloads) {
    if (!names.has(w.context)) {
      throw new UserError(`workload context "${w.context}" is not in the kubeconfig; check --context, the fleet file or --kubeconfig`, 2);
    }
  }
  // The control plane's context may not exist yet (before the install): the checklist says so.
  return selectContexts(
    loaded.config,
    fleetContextNames(fleet).filter((n) => names.has(n)),
  );
}

/**
 * The session of a run. A fleet comes from the fleet file and the flags (flags win); without
 * one, `--context` picks contexts as in kubectl. `useFleetFile: false` ignores the file (the
 * sandbox fleet has none of its own).
 */
export function openSession(opts: GlobalOptions, { useFleetFile = true } = {}): Session {
  if (opts.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.namespace)) {
    throw new UsageError(`"${opts.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  }
  const file = useFleetFile ? fleetFilePath() : undefined;
  const fleetFile = file ? readFleetFile(file) : undefined;
  // The control plane's kubeconfig the install wrote is read after the user's (theirs wins).
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig, ...(fleetFile?.kubeconfig ? { extra: [fleetFile.kubeconfig] } : {}) });
  const fleet = resolveFleet(fleetFile, opts);
  if (!fleet && (opts.controlPlaneContext || opts.namespace)) {
    throw new UsageError('--control-plane-context and --namespace describe a fleet: pass --hosting-context too (or define the fleet file)');
  }
  const contexts = fleet ? fleetSession(opts, loaded, fleet, file) : selectContexts(loaded.config, opts.context ?? []);
  const config = loaded.config;
  return { ...loaded, contexts, ...(fleet ? { fleet } : {}), readOnly: !!opts.readOnly, kc: contextConfigs(() => config) };
}

/**
 * The one context of a single-cluster command: --context (once), else the kubeconfig's
 * current context. `what` names the command in the errors ("a rollout works on one cluster").
 * Reads only the kubeconfig (no fleet file): these commands act on the cluster they are given.
 * `optional: true` returns undefined instead of failing when there is neither.
 */
export function resolveContext(opts: GlobalOptions, what: string, o: ResolveOptions & { optional: true }): OneContext | undefined;
export function resolveContext(opts: GlobalOptions, what: string, o?: ResolveOptions): OneContext;
export function resolveContext(
  opts: GlobalOptions,
  what: string,
  { required, noCurrentHint = '', optional = false }: ResolveOptions = {},
): OneContext | undefined {
  const given = (opts.context ?? []).filter(Boolean);
  if (given.length > 1) throw new UsageError(`${what}: give --context once (got ${given.join(', ')})`);
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig });
  if (!given[0] && required) throw new UsageError(required);
  const context = given[0] ?? loaded.config.getCurrentContext();
  if (!context) {
    if (optional) return undefined;
    throw new UsageError(`no --context given and the kubeconfig has no current context${noCurrentHint}`);
  }
  known(loaded, context);
  const kc = contextConfigs(() => loaded.config)(context);
  requireCredentials(context, kc);
  return { context, kc };
}

/**
 * A command that works on `context` stops here when its user's credentials cannot be loaded
 * (a file, plugin or certificate the kubeconfig names is not there or not valid): one line,
 * exit 2, before any request.
 */
export function requireCredentials(context: string, kc: KubeConfig): void {
  const problem = credentialsProblem(kc);
  if (!problem) return;
  const hint = problem.hint ?? `fix user "${problem.user}" of context ${context} in the kubeconfig`;
  throw new UserError(`context ${context}: ${problem.message}; ${hint}`, 2);
}

export interface ResolveOptions {
  /** The error when no --context is given (the current context is not enough). */
  required?: string;
  /** Added to the error when there is no current context. */
  noCurrentHint?: string;
  /** No --context and no current context: undefined instead of an error. */
  optional?: boolean;
}

export interface ContextWithNamespace extends OneContext {
  /** The context's namespace in the kubeconfig ('default' when it names none). */
  namespace: string;
}

/**
 * The contexts of a command that reads several clusters as kubectl would read one: each
 * --context (repeatable), else the kubeconfig's current context; each with its own namespace.
 * Reads only the kubeconfig (no fleet file).
 */
export function resolveContexts(opts: GlobalOptions, what: string): ContextWithNamespace[] {
  const loaded = loadKubeconfig({ kubeconfig: opts.kubeconfig });
  const given = [...new Set((opts.context ?? []).filter(Boolean))];
  const current = loaded.config.getCurrentContext();
  if (given.length === 0 && !current) throw new UsageError(`${what}: no --context given and the kubeconfig has no current context`);
  const configs = contextConfigs(() => loaded.config);
  return (given.length ? given : [current]).map((context) => {
    known(loaded, context);
    const kc = configs(context);
    requireCredentials(context, kc);
    return { context, kc, namespace: loaded.config.getContextObject(context)?.namespace || 'default' };
  });
}

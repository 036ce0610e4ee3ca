/**
 * The contexts a command names, as kubectl picks them: --context, else the kubeconfig's current
 * context. The session (session.ts) answers `one` and `several` with these, from its kubeconfig.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UsageError, UserError } from '../errors.js';
import { credentialsProblem } from '../kube/transport/credentials.js';
import { contextInfos, type LoadedKubeconfig } from '../kube/config/kubeconfig.js';
import type { GlobalOptions } from './options.js';

export interface OneContext {
  context: string;
  kc: KubeConfig;
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

/** A kubeconfig as the session read it, with one KubeConfig per context (made once, with the session's gate). */
export interface KubeconfigRead extends LoadedKubeconfig {
  kc(context: string): KubeConfig;
}

/** The kubeconfig's context, or the one-line error every command gives for an unknown one (exit 2). */
export function known(loaded: LoadedKubeconfig, context: string): void {
  const names = contextInfos(loaded.config).map((c) => c.name);
  if (!names.includes(context)) {
    throw new UserError(
      `context "${context}" is not in the kubeconfig (known: ${names.join(', ') || 'none'}); check --context or --kubeconfig`,
      2,
    );
  }
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

/**
 * The one context of a single-cluster command: --context (once), else the kubeconfig's
 * current context. `what` names the command in the errors ("a rollout works on one cluster").
 * The kubeconfig is read (`read`) only once the flags are known to be right.
 */
export function oneContext(
  opts: GlobalOptions,
  read: () => KubeconfigRead,
  what: string,
  { required, noCurrentHint = '', optional = false }: ResolveOptions = {},
): OneContext | undefined {
  const given = (opts.context ?? []).filter(Boolean);
  if (given.length > 1) throw new UsageError(`${what}: give --context once (got ${given.join(', ')})`);
  const loaded = read();
  if (!given[0] && required) throw new UsageError(required);
  const context = given[0] ?? loaded.config.getCurrentContext();
  if (!context) {
    if (optional) return undefined;
    throw new UsageError(`no --context given and the kubeconfig has no current context${noCurrentHint}`);
  }
  known(loaded, context);
  const kc = loaded.kc(context);
  requireCredentials(context, kc);
  return { context, kc };
}

/**
 * The contexts of a command that reads several clusters as kubectl would read one: each
 * --context (repeatable), else the kubeconfig's current context; each with its own namespace.
 */
export function severalContexts(opts: GlobalOptions, loaded: KubeconfigRead, what: string): ContextWithNamespace[] {
  const given = [...new Set((opts.context ?? []).filter(Boolean))];
  const current = loaded.config.getCurrentContext();
  if (given.length === 0 && !current) throw new UsageError(`${what}: no --context given and the kubeconfig has no current context`);
  return (given.length ? given : [current]).map((context) => {
    known(loaded, context);
    const kc = loaded.kc(context);
    requireCredentials(context, kc);
    return { context, kc, namespace: loaded.config.getContextObject(context)?.namespace || 'default' };
  });
}

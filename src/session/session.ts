/**
 * One session per run, built here and nowhere else: the write gate of --read-only, the kubeconfig
 * files, one KubeConfig per context, the fleet and the contexts on screen. Every command and
 * every tab takes its clusters from it, and every KubeConfig it gives out carries its gate: under
 * --read-only no request that would change a cluster leaves a client made from one.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { fleetContextNames, fleetFilePath, readFleetFile, resolveFleet } from '../config/fleet-config.js';
import { UsageError, UserError } from '../errors.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import {
  contextConfigs,
  contextInfos,
  loadKubeconfig,
  selectContexts,
  type ContextInfo,
  type KubeconfigSource,
  type LoadedKubeconfig,
} from '../kube/config/kubeconfig.js';
import { setGate, writeGate, type WriteGate } from '../kube/transport/gate.js';
import {
  type ContextWithNamespace,
  type KubeconfigRead,
  type OneContext,
  oneContext,
  type ResolveOptions,
  severalContexts,
} from './contexts.js';
import type { GlobalOptions } from './options.js';

export { type ContextWithNamespace, type OneContext, type ResolveOptions, requireCredentials } from './contexts.js';

export interface Session extends LoadedKubeconfig {
  /** The contexts to watch (with a fleet: those of its contexts the kubeconfig has). */
  contexts: ContextInfo[];
  fleet?: FleetConfig;
  /** --read-only: the session's write gate refuses every change. The one flag the rest reads. */
  readOnly: boolean;
  /** This context's own KubeConfig (made once per context), with the session's write gate. */
  kc(context: string): KubeConfig;
  /**
   * Refuses under --read-only, before anything is read or asked: throws the gate's one-line
   * refusal `${action} and is refused with --read-only${hint}` (exit 2).
   */
  assertWritable(action: string, hint?: string): void;
  /**
   * The one context of a single-cluster command: --context (once), else the kubeconfig's current
   * context, its credentials checked. `what` names the command in the errors ("a rollout works on
   * one cluster"). Reads only the kubeconfig (no fleet file): these commands act on the cluster
   * they are given. `optional: true` returns undefined when there is neither.
   */
  one(what: string, o: ResolveOptions & { optional: true }): OneContext | undefined;
  one(what: string, o?: ResolveOptions): OneContext;
  /**
   * The contexts of a command that reads several clusters as kubectl would read one: each
   * --context, else the current context; each with its namespace. Reads only the kubeconfig.
   */
  several(what: string): ContextWithNamespace[];
  /** The kubeconfig alone, as kubectl reads it (--kubeconfig, else KUBECONFIG, else ~/.kube/config): no fleet file's. */
  userKubeconfig(): LoadedKubeconfig;
  /** Another kubeconfig file (the control plane's, which the install wrote), read once; its contexts have the session's gate. */
  readKubeconfig(file: string): LoadedKubeconfig;
  /** This session (its gate, its kubeconfig as read) watching `names`, as `--context` names them ([]: every context). */
  withContexts(names: string[]): Session;
  /**
   * The run's session again, its flags changed (`kubeconfig`: a sandbox started) and every file
   * read afresh, now (a fleet installed, a kubeconfig edited): the same write gate (one per run);
   * the fleet file read as this session reads it unless `o` says.
   */
  reopened(changes: Partial<GlobalOptions>, o?: SessionOptions): Session;
}

export interface SessionOptions {
  /** false: no fleet file (the sandbox fleet has none of its own); the flags may still describe a fleet. */
  useFleetFile?: boolean;
}

/** What the sessions of a run made from one another share: the gate, and each kubeconfig read once. */
interface Shared {
  gate: WriteGate;
  reads: Map<string, KubeconfigRead>;
}

/** The kubeconfig of `src`, read once per session; its KubeConfigs, and theirs per context, have the gate. */
function readOnce(shared: Shared, src: KubeconfigSource): KubeconfigRead {
  const key = JSON.stringify([src.kubeconfig ?? null, src.extra ?? []]);
  let read = shared.reads.get(key);
  if (!read) {
    const loaded = loadKubeconfig(src);
    const config = setGate(loaded.config, shared.gate);
    read = { files: loaded.files, config, kc: contextConfigs(() => config) };
    shared.reads.set(key, read);
  }
  return read;
}

function fleetContexts(opts: GlobalOptions, loaded: LoadedKubeconfig, fleet: FleetConfig, file: string | undefined): ContextInfo[] {
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

interface FleetView {
  read: KubeconfigRead;
  fleet?: FleetConfig;
  contexts: ContextInfo[];
}

/** The fleet from the fleet file and the flags (flags win), else the --context ones: what the session watches. */
function fleetView(opts: GlobalOptions, useFleetFile: boolean, shared: Shared): FleetView {
  if (opts.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.namespace)) {
    throw new UsageError(`"${opts.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  }
  const file = useFleetFile ? fleetFilePath() : undefined;
  const fleetFile = file ? readFleetFile(file) : undefined;
  // The control plane's kubeconfig the install wrote is read after the user's (theirs wins).
  const read = readOnce(shared, { kubeconfig: opts.kubeconfig, ...(fleetFile?.kubeconfig ? { extra: [fleetFile.kubeconfig] } : {}) });
  const fleet = resolveFleet(fleetFile, opts);
  if (!fleet && (opts.controlPlaneContext || opts.namespace)) {
    throw new UsageError('--control-plane-context and --namespace describe a fleet: pass --hosting-context too (or define the fleet file)');
  }
  const contexts = fleet ? fleetContexts(opts, read, fleet, file) : selectContexts(read.config, opts.context ?? []);
  return { read, ...(fleet ? { fleet } : {}), contexts };
}

function build(opts: GlobalOptions, useFleetFile: boolean, shared: Shared): Session {
  let view: FleetView | undefined;
  const fleetPart = () => {
    view ??= fleetView(opts, useFleetFile, shared);
    return view;
  };
  const user = () => readOnce(shared, { kubeconfig: opts.kubeconfig });
  function one(what: string, o: ResolveOptions & { optional: true }): OneContext | undefined;
  function one(what: string, o?: ResolveOptions): OneContext;
  function one(what: string, o?: ResolveOptions): OneContext | undefined {
    return oneContext(opts, user, what, o);
  }
  return {
    readOnly: shared.gate.readOnly,
    get files() {
      return fleetPart().read.files;
    },
    get config() {
      return fleetPart().read.config;
    },
    get contexts() {
      return fleetPart().contexts;
    },
    get fleet() {
      return fleetPart().fleet;
    },
    kc: (context) => fleetPart().read.kc(context),
    assertWritable: shared.gate.assertWritable,
    one,
    several: (what) => severalContexts(opts, user(), what),
    userKubeconfig: user,
    readKubeconfig: (file) => readOnce(shared, { kubeconfig: file }),
    withContexts: (names) => build({ ...opts, context: names }, useFleetFile, shared),
    reopened: (changes, o = {}) =>
      opened(build({ ...opts, ...changes }, o.useFleetFile ?? useFleetFile, { gate: shared.gate, reads: new Map() })),
  };
}

/**
 * The session of a run, made before anything is read: its write gate (from --read-only) at
 * once; the kubeconfig, the fleet file and the contexts each read once, when first asked for,
 * so a command refuses or rejects its flags before any of them is read. A fleet comes from the
 * fleet file and the flags (flags win); without one, `--context` picks contexts as in kubectl.
 * `useFleetFile: false` ignores the file.
 */
export function startSession(opts: GlobalOptions, { useFleetFile = true }: SessionOptions = {}): Session {
  return build(opts, useFleetFile, { gate: writeGate(!!opts.readOnly), reads: new Map() });
}

/**
 * startSession, with the kubeconfig, the fleet and the contexts read now: a kubeconfig or fleet
 * that is wrong is said here (the dashboard and `status` open their session so).
 */
export function openSession(opts: GlobalOptions, o: SessionOptions = {}): Session {
  return opened(startSession(opts, o));
}

/** The session with its kubeconfig, fleet and contexts read (what is wrong with them thrown here). */
function opened(session: Session): Session {
  void session.contexts;
  return session;
}

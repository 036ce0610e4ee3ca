/**
 * One session per run, built here and nowhere else: the write gate of --read-only, the kubeconfig
 * files, one KubeConfig per context, the fleet and the contexts on screen. Every command and
 * every tab takes its clusters from it, and every KubeConfig it gives out carries its gate: under
 * --read-only no request that would change a cluster leaves a client made from one.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import {
  type FleetFile,
  fleetContextNames,
  fleetFilePath,
  readFleetFile,
  recordedFleetName,
  resolveFleet,
} from '../config/fleet-config.js';
import { identityProblem } from '../config/fleet-identity.js';
import { UsageError, UserError } from '../errors.js';
import { type FleetConfig, fleetProblemLine } from '../kube/fleet/fleet.js';
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
  /**
   * true (the dashboard, `status`): a fleet whose contexts are missing or are not the clusters
   * the fleet file recorded is kept, its problems on `fleet.problems` for the checklist to show,
   * and the kubeconfig's own contexts are shown when its hosting cluster is not the fleet's.
   * Otherwise such a fleet is refused in one line (exit 2): a command never acts on the wrong cluster.
   */
  showFleetProblems?: boolean;
  /**
   * Every context there is (`get --all-contexts`): the kubeconfig's and the control plane's the
   * install wrote — not that one when the fleet's hosting cluster is not this kubeconfig's.
   */
  allContexts?: boolean;
  /**
   * `control-plane`: a command that works on the control plane alone (backup, restore) is refused
   * only when the hosting or the control plane's context is not the recorded cluster; a workload
   * cluster gone does not stop it.
   */
  needs?: 'fleet' | 'control-plane';
  /** An install: --fleet may name a fleet the fleet file does not record yet (it records it). */
  creatingFleet?: boolean;
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

/** What is wrong with the fleet's contexts here: each one missing, or not the cluster the fleet file recorded. */
function fleetProblems(
  opts: GlobalOptions,
  read: KubeconfigRead,
  fleet: FleetConfig,
  file: string | undefined,
  fleetFile: FleetFile | undefined,
) {
  const problems: NonNullable<FleetConfig['problems']> = {};
  const names = new Set(contextInfos(read.config).map((c) => c.name));
  const from = opts.hostingContext ? '--hosting-context' : `the fleet file ${file}`;
  // Every context the fleet file recorded is checked, whether the file or a flag names it: a
  // recorded name that now points at another cluster is never the fleet's, however it is named.
  const recorded = fleetFile?.identities;
  const roles = [fleet.hostingContext, fleet.controlPlaneContext, ...fleet.workloads.map((w) => w.context)];
  for (const context of roles) {
    const p = identityProblem(context, recorded?.[context], read.config, file ?? '');
    if (p) problems[context] = p;
    else if (!names.has(context) && context === fleet.hostingContext)
      problems[context] = {
        detail: `hosting context "${context}" (from ${from}) is not in the kubeconfig`,
        hint: 'check --hosting-context or --kubeconfig',
      };
    else if (!names.has(context) && context !== fleet.controlPlaneContext)
      problems[context] = {
        detail: `workload context "${context}" is not in the kubeconfig`,
        hint: 'check --context, the fleet file or --kubeconfig',
      };
  }
  return problems;
}

function fleetContexts(
  opts: GlobalOptions,
  o: SessionOptions,
  shared: Shared,
  read: KubeconfigRead,
  fleet: FleetConfig,
  problems: NonNullable<FleetConfig['problems']>,
): ContextInfo[] {
  // A context the flags name that is not there is a mistyped flag: said at once, even by the dashboard.
  const named = new Set([...(opts.hostingContext ? [opts.hostingContext] : []), ...(opts.context ?? [])]);
  const needed = o.needs === 'control-plane' ? [fleet.hostingContext, fleet.controlPlaneContext] : Object.keys(problems);
  const refused = Object.keys(problems).filter((c) => (o.showFleetProblems ? named.has(c) : needed.includes(c)));
  const line = fleetProblemLine({ ...fleet, problems }, refused);
  if (line) throw new UserError(line, 2);
  // The hosting cluster is not the fleet's: the kubeconfig's own contexts, none of the fleet file's kubeconfig.
  if (problems[fleet.hostingContext]) return selectContexts(readOnce(shared, { kubeconfig: opts.kubeconfig }).config, opts.context ?? []);
  const names = new Set(contextInfos(read.config).map((c) => c.name));
  // The control plane's context may not exist yet (before the install): the checklist says so.
  return selectContexts(
    read.config,
    fleetContextNames(fleet).filter((n) => names.has(n)),
  );
}

interface FleetView {
  read: KubeconfigRead;
  fleet?: FleetConfig;
  contexts: ContextInfo[];
}

/** The fleet from the fleet file and the flags (flags win), else the --context ones: what the session watches. */
function fleetView(opts: GlobalOptions, o: SessionOptions, shared: Shared): FleetView {
  const useFleetFile = o.useFleetFile ?? true;
  if (opts.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.namespace)) {
    throw new UsageError(`"${opts.namespace}" is not a valid namespace name (lower-case letters, digits and -)`);
  }
  const file = useFleetFile ? fleetFilePath() : undefined;
  const fleetFile = file ? readFleetFile(file, o.creatingFleet) : undefined;
  // The control plane's kubeconfig the install wrote is read after the user's (theirs wins).
  const read = readOnce(shared, { kubeconfig: opts.kubeconfig, ...(fleetFile?.kubeconfig ? { extra: [fleetFile.kubeconfig] } : {}) });
  const resolved = resolveFleet(fleetFile, opts);
  // Its name, when it is the fleet the file records (not one the flags describe).
  const name = file && fleetFile && resolved && !opts.hostingContext ? recordedFleetName(file) : undefined;
  const fleet = resolved && name ? { name, ...resolved } : resolved;
  if (!fleet && (opts.controlPlaneContext || opts.namespace)) {
    throw new UsageError('--control-plane-context and --namespace describe a fleet: pass --hosting-context too (or define the fleet file)');
  }
  if (!fleet) return { read, contexts: selectContexts(read.config, opts.context ?? []) };
  const problems = fleetProblems(opts, read, fleet, file, fleetFile);
  // The hosting cluster is not the fleet's: the kubeconfig alone, none of the fleet file's kubeconfig.
  const own = problems[fleet.hostingContext] ? readOnce(shared, { kubeconfig: opts.kubeconfig }) : read;
  const contexts = o.allContexts ? selectContexts(own.config, []) : fleetContexts(opts, o, shared, read, fleet, problems);
  return { read: own, fleet: Object.keys(problems).length ? { ...fleet, problems } : fleet, contexts };
}

function build(opts: GlobalOptions, o: SessionOptions, shared: Shared): Session {
  let view: FleetView | undefined;
  const fleetPart = () => {
    view ??= fleetView(opts, o, shared);
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
    withContexts: (names) => build({ ...opts, context: names }, o, shared),
    reopened: (changes, again = {}) => opened(build({ ...opts, ...changes }, { ...o, ...again }, { gate: shared.gate, reads: new Map() })),
  };
}

/**
 * The session of a run, made before anything is read: its write gate (from --read-only) at
 * once; the kubeconfig, the fleet file and the contexts each read once, when first asked for,
 * so a command refuses or rejects its flags before any of them is read. A fleet comes from the
 * fleet file and the flags (flags win); without one, `--context` picks contexts as in kubectl.
 * `useFleetFile: false` ignores the file.
 */
export function startSession(opts: GlobalOptions, o: SessionOptions = {}): Session {
  return build(opts, o, { gate: writeGate(!!opts.readOnly), reads: new Map() });
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

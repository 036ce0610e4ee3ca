import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { KubeConfig, newClusters, newContexts, newUsers } from '../transport/client-node.js';
import { parse } from 'yaml';
import { UserError } from '../../errors.js';
import { withCompressionField } from '../transport/compression.js';
import { gateOf, setGate } from '../transport/gate.js';
import { ContextKubeConfig } from './context-config.js';
import type { ExecConfig, KubeUser } from '../transport/credentials.js';
import { inClusterConfig } from './in-cluster.js';

export interface KubeconfigSource {
  /** `--kubeconfig`: one file, as in kubectl. */
  kubeconfig?: string;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Read after the others (their names win), when they exist: the fleet's control-plane kubeconfig. */
  extra?: string[];
}

export interface LoadedKubeconfig {
  /** The files that were read, in precedence order. */
  files: string[];
  config: KubeConfig;
}

/** Which files kubectl would read: `--kubeconfig`, else `KUBECONFIG` (several), else ~/.kube/config. */
export function kubeconfigFiles(src: KubeconfigSource = {}): string[] {
  const env = src.env ?? process.env;
  if (src.kubeconfig) {
    if (!fs.existsSync(src.kubeconfig)) {
      throw new UserError(`kubeconfig ${src.kubeconfig} does not exist; pass an existing file to --kubeconfig`, 2);
    }
    return [path.resolve(src.kubeconfig)];
  }
  if (env.KUBECONFIG) {
    // kubectl ignores missing files in the KUBECONFIG list.
    return env.KUBECONFIG.split(path.delimiter)
      .filter((f) => f.length > 0 && fs.existsSync(f))
      .map((f) => path.resolve(f));
  }
  const home = env.HOME ?? os.homedir();
  const def = path.join(home, '.kube', 'config');
  return fs.existsSync(def) ? [def] : [];
}

/**
 * Loads and merges kubeconfig files the way kubectl does: for clusters, users and contexts
 * with the same name the first file wins; current-context comes from the first file that sets it.
 * With no file at all, inside a pod: the pod's service account (context `in-cluster`).
 */
export function loadKubeconfig(src: KubeconfigSource = {}): LoadedKubeconfig {
  const files = kubeconfigFiles(src);
  for (const f of src.extra ?? []) {
    const abs = path.resolve(f);
    if (!files.includes(abs) && fs.existsSync(abs)) files.push(abs);
  }
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  let currentContext = '';
  for (const file of files) {
    const read = readKubeconfigFile(file, file === src.kubeconfig || path.resolve(src.kubeconfig ?? '') === file);
    if (!read) continue;
    const { kc, doc } = read;
    const rawCluster = rawEntries(doc, 'clusters', 'cluster');
    for (const c of kc.getClusters()) if (!clusters.has(c.name)) clusters.set(c.name, withCompressionField(c, rawCluster.get(c.name)));
    const raw = rawEntries(doc, 'users', 'user');
    for (const u of kc.getUsers()) if (!users.has(u.name)) users.set(u.name, withKubectlFields(u, raw.get(u.name), path.dirname(file)));
    for (const c of kc.getContexts()) if (!contexts.has(c.name)) contexts.set(c.name, c);
    if (!currentContext && kc.getCurrentContext()) currentContext = kc.getCurrentContext();
  }
  // No kubeconfig at all, in a pod: its service account, as kubectl does.
  const pod = files.length === 0 ? inClusterConfig(src.env ?? process.env) : undefined;
  if (pod) {
    clusters.set(pod.cluster.name, pod.cluster);
    users.set(pod.user.name, pod.user);
    contexts.set(pod.context.name, pod.context);
    currentContext = pod.context.name;
  }
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [...clusters.values()],
    users: [...users.values()],
    contexts: [...contexts.values()],
    currentContext,
  });
  return { files, config };
}

/**
 * One kubeconfig file (client-node's reading of it, and the document as written), or undefined
 * for an empty one in the KUBECONFIG list (kubectl skips those). Every file that cannot be used
 * is a configuration error (exit 2) naming the file. The file is parsed once: client-node's
 * config is built from the parsed document as its `loadFromFile` would build it.
 */
function readKubeconfigFile(file: string, explicit: boolean): { kc: KubeConfig; doc: Record<string, unknown> } | undefined {
  const fix = explicit ? 'fix the file or pass another to --kubeconfig' : 'fix the file or take it out of KUBECONFIG';
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`kubeconfig ${file} cannot be read: ${(err as Error).message.split('\n')[0]}; ${fix}`, 2);
  }
  if (text.trim() === '') {
    if (!explicit) return undefined;
    throw new UserError(`kubeconfig ${file} is empty: it names no cluster, user or context; ${fix}`, 2);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    const why = ((err as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    throw new UserError(`kubeconfig ${file} is not YAML: ${why}; ${fix}`, 2);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UserError(`kubeconfig ${file} is not a kubeconfig (a YAML mapping of clusters, users and contexts); ${fix}`, 2);
  }
  const kc = new KubeConfig();
  const d = doc as Record<string, unknown>;
  try {
    kc.loadFromOptions({
      clusters: newClusters(d.clusters),
      contexts: newContexts(d.contexts),
      users: newUsers(d.users),
      currentContext: d['current-context'],
    });
    kc.makePathsAbsolute(path.dirname(file));
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new UserError(`kubeconfig ${file} cannot be used: ${why}; ${fix}`, 2);
  }
  return { kc, doc: d };
}

/**
 * The `user` (or `cluster`) entries of a kubeconfig document as written, by name: what
 * client-node leaves out is read from them.
 */
function rawEntries(
  doc: Record<string, unknown>,
  list: 'users' | 'clusters',
  field: 'user' | 'cluster',
): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const entries = Array.isArray(doc[list]) ? (doc[list] as Record<string, unknown>[]) : [];
  for (const e of entries) {
    const value = e?.[field];
    if (typeof e?.name === 'string' && value && typeof value === 'object') out.set(e.name, value as Record<string, unknown>);
  }
  return out;
}

/**
 * kubectl's fields client-node does not keep, with paths relative to the kubeconfig's folder
 * made absolute as kubectl does: `tokenFile`, and an exec plugin's command when it names a path.
 */
function withKubectlFields(user: User, raw: Record<string, unknown> | undefined, dir: string): KubeUser {
  let u: KubeUser = user;
  if (typeof raw?.tokenFile === 'string' && raw.tokenFile) u = { ...u, tokenFile: path.resolve(dir, raw.tokenFile) };
  const exec = u.exec as ExecConfig | undefined;
  if (exec?.command?.includes('/') && !path.isAbsolute(exec.command)) {
    u = { ...u, exec: { ...exec, command: path.resolve(dir, exec.command) } };
  }
  return u;
}

export function contextInfos(kc: KubeConfig): ContextInfo[] {
  return kc.getContexts().map((c) => ({
    name: c.name,
    cluster: c.cluster,
    user: c.user,
    server: kc.getCluster(c.cluster)?.server ?? '',
    ...(c.namespace ? { namespace: c.namespace } : {}),
  }));
}

/**
 * Picks the contexts to show: the named ones (each must exist), else all of them.
 * Throws a UserError naming the unknown context and the known ones.
 */
export function selectContexts(kc: KubeConfig, names: string[] = []): ContextInfo[] {
  const all = contextInfos(kc);
  if (names.length === 0) return all;
  return names.map((n) => {
    const found = all.find((c) => c.name === n);
    if (!found) {
      const known = all.map((c) => c.name).join(', ') || 'none';
      throw new UserError(`context "${n}" is not in the kubeconfig (known: ${known}); check --context or --kubeconfig`, 2);
    }
    return found;
  });
}

/**
 * A KubeConfig holding exactly one context, its cluster and its user. Clients made from
 * one shared KubeConfig after setCurrentContext can mix one cluster's server with another
 * context's credentials; one instance per context cannot. It has the write gate of `kc`, if any.
 */
export function configForContext(kc: KubeConfig, name: string): KubeConfig {
  const ctx = kc.getContextObject(name);
  if (!ctx) throw new UserError(`context "${name}" is not in the kubeconfig; check --context`, 2);
  const cluster = kc.getCluster(ctx.cluster);
  if (!cluster) {
    throw new UserError(`context "${name}" names cluster "${ctx.cluster}", which is not in the kubeconfig; add it or fix the context`, 2);
  }
  // A kubeconfig naming what it does not hold is a configuration error, as for a cluster.
  const user = kc.getUser(ctx.user);
  if (!user)
    throw new UserError(`context "${name}" names user "${ctx.user}", which is not in the kubeconfig; add it or fix the context`, 2);
  // Its credentials checked before every request (context-config.ts).
  const out = new ContextKubeConfig();
  out.loadFromOptions({ clusters: [cluster], users: [user], contexts: [ctx], currentContext: name });
  // A session's kubeconfig gives its contexts its write gate.
  const gate = gateOf(kc);
  return gate ? setGate(out, gate) : out;
}

/**
 * One KubeConfig per context of a kubeconfig that may change (a sandbox started or a fleet
 * installed from the dashboard): each made once, made again when `config()` returns another one.
 */
export function contextConfigs(config: () => KubeConfig): (context: string) => KubeConfig {
  let cachedFor: KubeConfig | undefined;
  const cache = new Map<string, KubeConfig>();
  return (context) => {
    const current = config();
    if (current !== cachedFor) {
      cachedFor = current;
      cache.clear();
    }
    let kc = cache.get(context);
    if (!kc) {
      kc = configForContext(current, context);
      cache.set(context, kc);
    }
    return kc;
  };
}

export interface ContextInfo {
  name: string;
  cluster: string;
  user: string;
  server: string;
  namespace?: string;
}

/** A KubeConfig from kubeconfig YAML text (e.g. the control plane's admin kubeconfig the install builds). */
export function kubeConfigFromString(text: string, from?: KubeConfig): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  // Made by a session's workflow from one of its KubeConfigs (`from`): the session's write gate goes with it.
  const gate = from ? gateOf(from) : undefined;
  return gate ? setGate(kc, gate) : kc;
}

/**
 * One KubeConfig holding every cluster, user and context of `configs` (a later one wins a name
 * they share), with `currentContext` current; the write gate of the first that has one.
 */
export function mergeKubeConfigs(configs: readonly KubeConfig[], currentContext: string): KubeConfig {
  const kc = new KubeConfig();
  const clusters = new Map<string, Cluster>();
  const users = new Map<string, User>();
  const contexts = new Map<string, Context>();
  for (const t of configs) {
    for (const c of t.getClusters()) clusters.set(c.name, c);
    for (const u of t.getUsers()) users.set(u.name, u);
    for (const c of t.getContexts()) contexts.set(c.name, c);
  }
  kc.loadFromOptions({ clusters: [...clusters.values()], users: [...users.values()], contexts: [...contexts.values()], currentContext });
  // Made from a session's KubeConfigs: the session's write gate goes with it.
  const gate = configs.map(gateOf).find((g) => g !== undefined);
  return gate ? setGate(kc, gate) : kc;
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { YAMLParseError, parseDocument, stringify } from 'yaml';
import { UserError } from '../errors.js';
import { identityOf } from '../kube/config/identity.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import { checkIdentities, type Identities } from './fleet-identity.js';

export const DEFAULT_CONTROL_PLANE_CONTEXT = 'nova';
export const DEFAULT_NAMESPACE = 'elotl';

/** The fleet file as written (every field optional; workloads as names or {context, clusterName}). */
export interface FleetFile {
  hostingContext?: string;
  controlPlaneContext?: string;
  namespace?: string;
  workloads?: (string | { context: string; clusterName?: string })[];
  /** A kubeconfig file with the control plane's context (written by the install), read after the user's. */
  kubeconfig?: string;
  /** Rollouts of these contexts run in the cluster by default (their nodes can pull `image`). */
  inClusterRollouts?: InClusterRollouts;
  /** Per context of the fleet: the cluster it pointed at when the fleet was recorded (src/config/fleet-identity.ts). */
  identities?: Identities;
}

export interface InClusterRollouts {
  contexts: string[];
  image?: string;
  namespace?: string;
}

export interface FleetFlags {
  hostingContext?: string;
  controlPlaneContext?: string;
  namespace?: string;
  /** With a fleet: the workload contexts. */
  context?: string[];
}

/** $XDG_CONFIG_HOME/fleetdeck/fleet.yaml (FLEETDECK_FLEET_FILE overrides). */
export function fleetFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLEETDECK_FLEET_FILE) return path.resolve(env.FLEETDECK_FLEET_FILE);
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME ?? os.homedir(), '.config');
  return path.join(base, 'fleetdeck', 'fleet.yaml');
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function fail(file: string, line: number | undefined, what: string): never {
  throw new UserError(`${file}${line ? ` line ${line}` : ''}: ${what}; fix the fleet file or pass --hosting-context`, 2);
}

/** Reads and checks the fleet file; undefined when it does not exist. Errors name the line. */
export function readFleetFile(file: string): FleetFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`${file}: cannot be read (${(err as Error).message})`, 2);
  }
  const doc = parseDocument(text);
  const lineOf = (offset: number | undefined) => (offset === undefined ? undefined : text.slice(0, offset).split('\n').length);
  const first = doc.errors[0];
  if (first) {
    const line = first instanceof YAMLParseError ? first.linePos?.[0]?.line : undefined;
    const what = (first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    fail(file, line, `not valid YAML (${what})`);
  }
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    fail(file, 1, 'expected a mapping with hostingContext, controlPlaneContext, namespace, workloads');
  const known = new Set([
    'hostingContext',
    'controlPlaneContext',
    'namespace',
    'workloads',
    'kubeconfig',
    'inClusterRollouts',
    'identities',
  ]);
  const obj = value as Record<string, unknown>;
  const lineOfKey = (key: string) => {
    const pair = (doc.contents as { items?: { key?: { value?: unknown; range?: [number] } }[] })?.items?.find((p) => p.key?.value === key);
    return lineOf(pair?.key?.range?.[0]);
  };
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) fail(file, lineOfKey(key), `unknown field "${key}" (known: ${[...known].join(', ')})`);
  }
  for (const key of ['hostingContext', 'controlPlaneContext', 'namespace', 'kubeconfig']) {
    if (obj[key] !== undefined && (typeof obj[key] !== 'string' || obj[key] === ''))
      fail(file, lineOfKey(key), `"${key}" must be a non-empty string`);
  }
  if (typeof obj.namespace === 'string' && !DNS_LABEL.test(obj.namespace)) {
    fail(file, lineOfKey('namespace'), `"${obj.namespace}" is not a valid namespace name`);
  }
  if (obj.workloads !== undefined) {
    if (!Array.isArray(obj.workloads)) fail(file, lineOfKey('workloads'), '"workloads" must be a list');
    for (const w of obj.workloads) {
      const ok = typeof w === 'string' || (typeof w === 'object' && w !== null && typeof (w as { context?: unknown }).context === 'string');
      if (!ok) fail(file, lineOfKey('workloads'), 'each workload is a context name or {context, clusterName}');
    }
  }
  if (obj.inClusterRollouts !== undefined)
    checkInCluster(obj.inClusterRollouts, (what) => fail(file, lineOfKey('inClusterRollouts'), what));
  if (obj.identities !== undefined) checkIdentities(obj.identities, (what) => fail(file, lineOfKey('identities'), what));
  return obj as FleetFile;
}

function checkInCluster(v: unknown, bad: (what: string) => never): void {
  const o = v as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) bad('"inClusterRollouts" must be a mapping with contexts, image, namespace');
  const contexts = o.contexts;
  if (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string' || !c))
    bad('"inClusterRollouts.contexts" must be a list of context names');
  for (const key of Object.keys(o))
    if (!['contexts', 'image', 'namespace'].includes(key))
      bad(`unknown field "inClusterRollouts.${key}" (known: contexts, image, namespace)`);
  for (const key of ['image', 'namespace'])
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === '')) bad(`"inClusterRollouts.${key}" must be a non-empty string`);
  if (typeof o.namespace === 'string' && !DNS_LABEL.test(o.namespace)) bad(`"${o.namespace}" is not a valid namespace name`);
}

/** Written by the install wizard; 0600 like other files that name credentials' contexts. */
export function writeFleetFile(file: string, fleet: FleetConfig, extra: { kubeconfig?: string; identities?: Identities } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Settings the install does not own are kept.
  let kept: InClusterRollouts | undefined;
  try {
    kept = readFleetFile(file)?.inClusterRollouts;
  } catch {
    kept = undefined;
  }
  const body: FleetFile = {
    hostingContext: fleet.hostingContext,
    controlPlaneContext: fleet.controlPlaneContext,
    namespace: fleet.namespace,
    workloads: fleet.workloads.map((w) => (w.clusterName === w.context ? w.context : w)),
    ...(extra.kubeconfig ? { kubeconfig: extra.kubeconfig } : {}),
    ...(kept ? { inClusterRollouts: kept } : {}),
    ...(extra.identities && Object.keys(extra.identities).length ? { identities: extra.identities } : {}),
  };
  writeAtomically(file, body);
}

function writeAtomically(file: string, body: FleetFile): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, stringify(body), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Records `context`'s cluster as `kc` says now (fleetdeck handed its CA over: a rotation); nothing
 * when the file records no identity for it.
 */
export function rerecordIdentity(file: string, context: string, kc: KubeConfig): void {
  const body = readFleetFile(file);
  const old = body?.identities?.[context];
  const now = identityOf(kc, context);
  if (!body?.identities || !old || !now) return;
  body.identities[context] = { ...old, ...now };
  writeAtomically(file, body);
}

/**
 * The fleet from the file and the flags (flags win). No fleet without a hosting context:
 * then every kubeconfig context is shown as a plain cluster.
 */
export function resolveFleet(file: FleetFile | undefined, flags: FleetFlags): FleetConfig | undefined {
  const hostingContext = flags.hostingContext ?? file?.hostingContext;
  if (!hostingContext) return undefined;
  const workloads = flags.context?.length
    ? flags.context.map((context) => ({ context, clusterName: context }))
    : (file?.workloads ?? []).map((w) =>
        typeof w === 'string' ? { context: w, clusterName: w } : { context: w.context, clusterName: w.clusterName ?? w.context },
      );
  return {
    hostingContext,
    controlPlaneContext: flags.controlPlaneContext ?? file?.controlPlaneContext ?? DEFAULT_CONTROL_PLANE_CONTEXT,
    namespace: flags.namespace ?? file?.namespace ?? DEFAULT_NAMESPACE,
    workloads,
  };
}

/** The fleet's contexts in display order: hosting, control plane, workloads (no duplicates). */
export function fleetContextNames(fleet: FleetConfig): string[] {
  return [...new Set([fleet.hostingContext, fleet.controlPlaneContext, ...fleet.workloads.map((w) => w.context)])];
}

/** The fleet file's in-cluster setting for a context: run there by default, with its image and namespace. */
export function inClusterDefaults(context: string, file = fleetFilePath()): { inCluster: boolean; image?: string; namespace?: string } {
  const setting = readFleetFile(file)?.inClusterRollouts;
  if (!setting?.contexts.includes(context)) return { inCluster: false };
  return {
    inCluster: true,
    ...(setting.image ? { image: setting.image } : {}),
    ...(setting.namespace ? { namespace: setting.namespace } : {}),
  };
}

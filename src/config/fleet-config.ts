import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { identityOf } from '../kube/config/identity.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import { readFleetsDoc } from './fleet-file-check.js';
import type { Identities } from './fleet-identity.js';
import { bodyOf, fleetDir, type FleetsDoc, fleetsOf, selectedName, selectFleet, withFleet, withoutFleet } from './fleets.js';

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

/**
 * The fleet this run works on (--fleet, else the file's current one, else its only one);
 * undefined when the file does not exist or records none. `creating`: an install may name a
 * fleet the file does not record yet. Errors name the line.
 */
export function readFleetFile(file: string, creating = false): FleetFile | undefined {
  return selectFleet(readFleetsDoc(file), file, creating);
}

export { readFleetsDoc };

/**
 * The other recorded fleets that use one of `contexts` with the same `namespace` (an install or
 * uninstall there would take their control plane or agents): "fleet default uses namespace elotl
 * in kind-workload-2 too".
 */
export function fleetsSharing(file: string, contexts: readonly string[], namespace: string): string[] {
  const doc = readForWrite(file);
  const mine = selectedName(doc);
  return Object.entries(doc.fleets).flatMap(([name, f]) => {
    if (name === mine || (f.namespace ?? DEFAULT_NAMESPACE) !== namespace) return [];
    const used = [f.hostingContext, ...(f.workloads ?? []).map((w) => (typeof w === 'string' ? w : w.context))];
    const shared = contexts.filter((c) => used.includes(c));
    return shared.length ? [`fleet ${name} uses namespace ${namespace} in ${shared.join(', ')} too`] : [];
  });
}

/** The name of the fleet this run works on when the file records fleets by name (none in the one-fleet form). */
export function recordedFleetName(file: string): string | undefined {
  const doc = readForWrite(file);
  return doc.single ? undefined : selectedName(doc);
}

/** The file's fleets, or none when it cannot be read (a write keeps what it can). */
function readForWrite(file: string): FleetsDoc {
  try {
    return readFleetsDoc(file);
  } catch {
    return fleetsOf(undefined);
  }
}

/** Written by the install: the fleet of this run, beside the others; 0600 like other files that name credentials' contexts. */
export function writeFleetFile(file: string, fleet: FleetConfig, extra: { kubeconfig?: string; identities?: Identities } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const doc = readForWrite(file);
  // Settings the install does not own are kept.
  let kept: InClusterRollouts | undefined;
  try {
    kept = selectFleet(doc, file, true)?.inClusterRollouts;
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
  writeAtomically(file, withFleet(doc, body));
}

function writeAtomically(file: string, doc: FleetsDoc): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, stringify(bodyOf(doc)), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * The directory of the files of the fleet this run works on (the control plane's kubeconfig,
 * backups): beside the fleet file, or in `fleets/NAME/` beside it for a fleet named other than
 * `default`.
 */
export function fleetFilesDir(file: string): string {
  return fleetDir(file, readForWrite(file));
}

/** How an uninstall names what it takes from the fleet file: the file, or `FILE (fleet NAME)` when other fleets stay in it. */
export function fleetFileMention(file: string): string {
  const doc = readForWrite(file);
  return Object.keys(withoutFleet(doc).fleets).length ? `${file} (fleet ${selectedName(doc)})` : file;
}

/** Forgets the fleet of this run (an uninstall); the file goes with its last fleet. Returns what was removed, as fleetFileMention says it. */
export function forgetFleet(file: string): string {
  const said = fleetFileMention(file);
  const doc = withoutFleet(readForWrite(file));
  if (Object.keys(doc.fleets).length === 0) fs.rmSync(file, { force: true });
  else writeAtomically(file, doc);
  return said;
}

/** Makes `name` the fleet file's current fleet (`fleetdeck fleet use`); the caller checked it is recorded. */
export function setCurrentFleet(file: string, name: string): void {
  const doc = readFleetsDoc(file);
  writeAtomically(file, { ...doc, current: name });
}

/**
 * Records `context`'s cluster as `kc` says now (fleetdeck handed its CA over: a rotation); nothing
 * when the file records no identity for it.
 */
export function rerecordIdentity(file: string, context: string, kc: KubeConfig): void {
  const doc = readFleetsDoc(file);
  const body = selectFleet(doc, file);
  const old = body?.identities?.[context];
  const now = identityOf(kc, context);
  if (!body?.identities || !old || !now) return;
  body.identities[context] = { ...old, ...now };
  writeAtomically(file, withFleet(doc, body));
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

/**
 * What completion offers from outside the program: the context names of the kubeconfig the line
 * names (`--kubeconfig FILE`, else KUBECONFIG, else ~/.kube/config) and the rollouts recorded in
 * the cluster of the line's `--context` (else the current context). The kubeconfig is read as
 * YAML only; the cluster is asked only for rollout names, with a short deadline, and only reads.
 * Any failure offers nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { type FleetFile, fleetFilePath } from '../config/fleet-config.js';
import { type FleetsDoc, fleetsOf, selectedName } from '../config/fleets.js';

/** The value of `--flag V` or `--flag=V` on the line (the last one given). */
export function flagValue(words: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === flag && i + 1 < words.length) value = words[i + 1];
    else if (w.startsWith(`${flag}=`)) value = w.slice(flag.length + 1);
  }
  return value || undefined;
}

/** The kubeconfig files kubectl would read for this line, in precedence order. */
export function kubeconfigFilesOf(words: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = flagValue(words, '--kubeconfig');
  if (given) return [given.replace(/^~(?=\/)/, env.HOME ?? os.homedir())];
  if (env.KUBECONFIG) return env.KUBECONFIG.split(path.delimiter).filter(Boolean);
  return [path.join(env.HOME ?? os.homedir(), '.kube', 'config')];
}

interface KubeconfigNames {
  contexts?: { name?: unknown }[];
  'current-context'?: unknown;
}

function readNames(file: string): KubeconfigNames {
  try {
    const doc: unknown = parse(fs.readFileSync(file, 'utf8'));
    return doc && typeof doc === 'object' ? (doc as KubeconfigNames) : {};
  } catch {
    return {};
  }
}

/** The fleet file's fleets, read without judging them; none on any problem. */
function fleetsDoc(env: NodeJS.ProcessEnv): FleetsDoc {
  try {
    const doc: unknown = parse(fs.readFileSync(fleetFilePath(env), 'utf8'));
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? fleetsOf(doc as FleetFile) : fleetsOf(undefined);
  } catch {
    return fleetsOf(undefined);
  }
}

/** The fleet the line works on: its --fleet, else FLEETDECK_FLEET, else the file's current one, else its only one. */
function lineFleet(words: readonly string[], env: NodeJS.ProcessEnv): FleetFile | undefined {
  const doc = fleetsDoc(env);
  const flag = flagValue(words, '--fleet');
  const name = selectedName(doc, flag ? { ...env, FLEETDECK_FLEET: flag } : env);
  const fleet = name === undefined ? undefined : doc.fleets[name];
  return fleet && typeof fleet === 'object' ? fleet : undefined;
}

/** The names of the fleets the fleet file records (for --fleet and `fleet use`). */
export function fleetNames(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(fleetsDoc(env).fleets);
}

/** The control plane's kubeconfig the install wrote, as the line's fleet names it (read after the user's, as the dashboard reads it). */
function fleetKubeconfig(words: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const file = lineFleet(words, env)?.kubeconfig;
  return typeof file === 'string' && file ? [file] : [];
}

/** Every context name of the line's kubeconfig files (the first file's first), then the control plane's the install wrote, without repeats. */
export function contextNames(words: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const names = [...kubeconfigFilesOf(words, env), ...fleetKubeconfig(words, env)].flatMap((f) => {
    const { contexts } = readNames(f);
    return Array.isArray(contexts) ? contexts : [];
  });
  return [...new Set(names.map((c) => c?.name).filter((n): n is string => typeof n === 'string' && n !== ''))];
}

/**
 * The names of the rollouts recorded in the cluster of the line's context; [] on any failure or
 * when the cluster has not answered within `deadlineMs` (counted from the request, not from
 * loading the Kubernetes client).
 */
export async function rolloutNames(words: readonly string[], deadlineMs = 3_000): Promise<string[]> {
  try {
    // Loaded only here: the rest of completion needs no Kubernetes client.
    const { listRolloutNames } = await import('./rollout-names.js');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve([]), deadlineMs);
    });
    const read = listRolloutNames(flagValue(words, '--kubeconfig'), flagValue(words, '--context'), deadlineMs).catch(() => []);
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  } catch {
    return [];
  }
}

/** The cluster names of the line's fleet's workloads (for `upgrade --canary`); [] when there is none. */
export function fleetClusterNames(words: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): string[] {
  const workloads: unknown = lineFleet(words, env)?.workloads;
  if (!Array.isArray(workloads)) return [];
  return workloads
    .map((w: unknown) =>
      typeof w === 'string'
        ? w
        : ((w as { clusterName?: unknown; context?: unknown } | null)?.clusterName ?? (w as { context?: unknown } | null)?.context),
    )
    .filter((n): n is string => typeof n === 'string' && n !== '');
}

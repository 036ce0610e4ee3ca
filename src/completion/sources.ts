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
import { fleetFilePath } from '../config/fleet-config.js';

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

/** The control plane's kubeconfig the install wrote, as the fleet file names it (read after the user's, as the dashboard reads it). */
function fleetKubeconfig(env: NodeJS.ProcessEnv): string[] {
  try {
    const doc: unknown = parse(fs.readFileSync(fleetFilePath(env), 'utf8'));
    const file = (doc as { kubeconfig?: unknown } | null)?.kubeconfig;
    return typeof file === 'string' && file ? [file] : [];
  } catch {
    return [];
  }
}

/** Every context name of the line's kubeconfig files (the first file's first), then the control plane's the install wrote, without repeats. */
export function contextNames(words: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const names = [...kubeconfigFilesOf(words, env), ...fleetKubeconfig(env)].flatMap((f) => {
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

/** The cluster names of the fleet file's workloads (for `upgrade --canary`); [] when there is none. */
export function fleetClusterNames(env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const doc = parse(fs.readFileSync(fleetFilePath(env), 'utf8')) as { workloads?: unknown } | null;
    const workloads = Array.isArray(doc?.workloads) ? (doc.workloads as unknown[]) : [];
    return workloads
      .map((w) =>
        typeof w === 'string'
          ? w
          : ((w as { clusterName?: unknown; context?: unknown } | null)?.clusterName ?? (w as { context?: unknown } | null)?.context),
      )
      .filter((n): n is string => typeof n === 'string' && n !== '');
  } catch {
    return [];
  }
}

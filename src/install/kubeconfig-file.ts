import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import { StepError } from './runner.js';

interface Named {
  name: string;
  [k: string]: unknown;
}

interface KubeconfigDoc {
  apiVersion?: string;
  kind?: string;
  clusters?: Named[];
  users?: Named[];
  contexts?: Named[];
  'current-context'?: string;
  [k: string]: unknown;
}

function read(file: string): KubeconfigDoc {
  if (!fs.existsSync(file)) return { apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] };
  const doc = (parse(fs.readFileSync(file, 'utf8')) ?? {}) as KubeconfigDoc;
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new StepError(`${file} is not a kubeconfig`, 'point the merge at a kubeconfig file');
  return doc;
}

/**
 * Adds the clusters, users and contexts of `source` to the kubeconfig `target`, never
 * overwriting an entry of the same name that differs (the step fails and says which), after a
 * backup of `target` (mode 0600). The current context is left alone. Returns one line for the
 * progress row.
 */
export function mergeKubeconfigFile(target: string, source: string, now: Date = new Date()): string {
  const into = read(target);
  const from = read(source);
  const added: string[] = [];
  for (const key of ['clusters', 'users', 'contexts'] as const) {
    into[key] ??= [];
    const list = into[key];
    for (const entry of from[key] ?? []) {
      const same = list.find((e) => e.name === entry.name);
      if (same && !isDeepStrictEqual(same, entry)) {
        throw new StepError(
          `${target} already has a different ${key.slice(0, -1)} named "${entry.name}": not overwritten`,
          `use the written kubeconfig (${source}) with --kubeconfig or KUBECONFIG, or rename that entry in ${target} and run the install again`,
        );
      }
      if (!same) {
        list.push(entry);
        added.push(`${key.slice(0, -1)} ${entry.name}`);
      }
    }
  }
  if (added.length === 0) return `already in ${target}`;
  let backup: string | undefined;
  if (fs.existsSync(target)) {
    backup = `${target}.fleetdeck-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(target, backup);
    fs.chmodSync(backup, 0o600);
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, stringify(into), { mode: 0o600 });
  fs.renameSync(tmp, target);
  return `merged into ${target}${backup ? ` (backup ${path.basename(backup)})` : ''}`;
}

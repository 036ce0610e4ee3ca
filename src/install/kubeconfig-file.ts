import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import { StepError } from './runner.js';

export interface Named {
  name: string;
  [k: string]: unknown;
}

export const ENTRY_KINDS = ['clusters', 'users', 'contexts'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** An entry the merge added to a kubeconfig: its list, its name, and the entry itself. */
export interface AddedEntry {
  kind: EntryKind;
  name: string;
  entry: Named;
}

/** "context nova", "user nova-admin". */
export const entryLabel = (e: { kind: EntryKind; name: string }) => `${e.kind.slice(0, -1)} ${e.name}`;

export interface KubeconfigDoc {
  apiVersion?: string;
  kind?: string;
  clusters?: Named[];
  users?: Named[];
  contexts?: Named[];
  'current-context'?: string;
  [k: string]: unknown;
}

export function readKubeconfigDoc(file: string): KubeconfigDoc {
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
 * progress row and the entries it added (what the uninstall may remove again).
 */
export function mergeKubeconfigFile(target: string, source: string, now: Date = new Date()): { line: string; added: AddedEntry[] } {
  const into = readKubeconfigDoc(target);
  const from = readKubeconfigDoc(source);
  const added: AddedEntry[] = [];
  for (const key of ENTRY_KINDS) {
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
        added.push({ kind: key, name: entry.name, entry });
      }
    }
  }
  if (added.length === 0) return { line: `already in ${target}`, added };
  const backup = writeWithBackup(target, into, now);
  return { line: `merged into ${target}${backup ? ` (backup ${path.basename(backup)})` : ''}`, added };
}

/** The backup's path: `<file>.fleetdeck-backup-<time>`. */
export function backupPath(file: string, now: Date): string {
  return `${file}.fleetdeck-backup-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/** Copies `file` to its backup (0600) when it exists, then replaces it atomically with `doc` (0600). Returns the backup's path. */
export function writeWithBackup(file: string, doc: KubeconfigDoc, now: Date): string | undefined {
  let backup: string | undefined;
  if (fs.existsSync(file)) {
    backup = backupPath(file, now);
    fs.copyFileSync(file, backup);
    fs.chmodSync(backup, 0o600);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, stringify(doc), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return backup;
}

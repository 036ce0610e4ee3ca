/**
 * What the install merged into a user's kubeconfig (`--merge-kubeconfig`), recorded next to the
 * control plane's kubeconfig, and the uninstall taking exactly that out again: an entry the user
 * changed since, or one a remaining context still uses, stays.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { parse, stringify } from 'yaml';
import {
  backupPath,
  ENTRY_KINDS,
  entryLabel,
  readKubeconfigDoc,
  writeWithBackup,
  type AddedEntry,
  type EntryKind,
  type KubeconfigDoc,
  type Named,
} from './kubeconfig-file.js';

/** An entry the install added, by its SHA-256 (of its canonical JSON: no key material in the record). */
export interface RecordedEntry {
  kind: EntryKind;
  name: string;
  sha256: string;
}

export interface MergeRecord {
  merges: { file: string; entries: RecordedEntry[] }[];
}

/** `<control plane kubeconfig>.merged.yaml`. */
export function mergeRecordPath(kubeconfigPath: string): string {
  return `${kubeconfigPath}.merged.yaml`;
}

/** JSON with sorted keys: the same entry reordered (kubectl rewrites the file) has the same digest. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function entryDigest(entry: Named): string {
  return createHash('sha256').update(canonical(entry)).digest('hex');
}

export function readMergeRecord(file: string): MergeRecord | undefined {
  if (!fs.existsSync(file)) return undefined;
  const doc = parse(fs.readFileSync(file, 'utf8')) as MergeRecord | null;
  return doc && Array.isArray(doc.merges) ? doc : undefined;
}

/** Adds what a merge added to the record (0600). Entries merged by an earlier run stay recorded. */
export function recordMerge(recordFile: string, target: string, added: readonly AddedEntry[]): void {
  if (added.length === 0) return;
  const record = readMergeRecord(recordFile) ?? { merges: [] };
  let merge = record.merges.find((m) => m.file === target);
  if (!merge) {
    merge = { file: target, entries: [] };
    record.merges.push(merge);
  }
  for (const a of added) {
    merge.entries = merge.entries.filter((e) => !(e.kind === a.kind && e.name === a.name));
    merge.entries.push({ kind: a.kind, name: a.name, sha256: entryDigest(a.entry) });
  }
  const tmp = `${recordFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `# fleetdeck install merged these entries; fleetdeck uninstall removes them\n${stringify(record)}`, {
    mode: 0o600,
  });
  fs.renameSync(tmp, recordFile);
}

export interface UnmergePlan {
  remove: RecordedEntry[];
  kept: { entry: string; reason: string }[];
  /** Recorded entries no longer in the file. */
  gone: string[];
}

/** Which recorded entries to remove from the kubeconfig `doc` (pure). */
export function planUnmerge(entries: readonly RecordedEntry[], doc: KubeconfigDoc): UnmergePlan {
  const plan: UnmergePlan = { remove: [], kept: [], gone: [] };
  const candidates: RecordedEntry[] = [];
  for (const e of entries) {
    const now = doc[e.kind]?.find((x) => x.name === e.name);
    if (!now) plan.gone.push(entryLabel(e));
    else if (entryDigest(now) !== e.sha256) plan.kept.push({ entry: entryLabel(e), reason: 'changed since the install' });
    else candidates.push(e);
  }
  // A cluster or user stays while a context that stays refers to it.
  const leaving = new Set(candidates.filter((e) => e.kind === 'contexts').map((e) => e.name));
  const staying = (doc.contexts ?? []).filter((c) => !leaving.has(c.name));
  for (const e of candidates) {
    const field = e.kind === 'clusters' ? 'cluster' : e.kind === 'users' ? 'user' : undefined;
    const user = field && staying.find((c) => (c.context as Record<string, unknown> | undefined)?.[field] === e.name);
    if (user) plan.kept.push({ entry: entryLabel(e), reason: `still used by context ${user.name}` });
    else plan.remove.push(e);
  }
  return plan;
}

export interface UnmergeResult {
  file: string;
  /** Removed (in a dry run: to be removed). */
  removed: string[];
  kept: { entry: string; reason: string }[];
  gone: string[];
  /** The backup written before the change (in a dry run: where it would be). */
  backup?: string;
  /** The file's current-context named a context that was removed. */
  danglingCurrentContext?: string;
}

function unmergeOne(file: string, entries: readonly RecordedEntry[], dryRun: boolean, now: Date): UnmergeResult {
  if (!fs.existsSync(file)) return { file, removed: [], kept: [], gone: entries.map(entryLabel) };
  const doc = readKubeconfigDoc(file);
  const plan = planUnmerge(entries, doc);
  const res: UnmergeResult = { file, removed: plan.remove.map(entryLabel), kept: plan.kept, gone: plan.gone };
  if (plan.remove.length === 0) return res;
  const current = doc['current-context'];
  if (current && plan.remove.some((e) => e.kind === 'contexts' && e.name === current)) res.danglingCurrentContext = current;
  if (dryRun) return { ...res, backup: backupPath(file, now) };
  for (const kind of ENTRY_KINDS) {
    const drop = new Set(plan.remove.filter((e) => e.kind === kind).map((e) => e.name));
    if (doc[kind]) doc[kind] = doc[kind].filter((x) => !drop.has(x.name));
  }
  const backup = writeWithBackup(file, doc, now);
  return backup ? { ...res, backup } : res;
}

/** Takes out of each kubeconfig what the record says the install added (nothing changes in a dry run). */
export function unmergeKubeconfigs(recordFile: string, opts: { dryRun?: boolean; now?: Date } = {}): UnmergeResult[] {
  const record = readMergeRecord(recordFile);
  const now = opts.now ?? new Date();
  return (record?.merges ?? []).map((m) => unmergeOne(m.file, m.entries, opts.dryRun === true, now));
}

/** One sentence per kubeconfig: what was (or would be) removed, kept and why, the backup. */
export function unmergeLines(results: readonly UnmergeResult[], dryRun: boolean): string[] {
  return results.map((r) => {
    const parts: string[] = [];
    if (r.removed.length && dryRun) parts.push(`would remove ${r.removed.join(', ')} from ${r.file} (after a backup to ${r.backup})`);
    else if (r.removed.length) parts.push(`removed ${r.removed.join(', ')} from ${r.file} (backup ${r.backup})`);
    else parts.push(`nothing to remove from ${r.file}`);
    for (const k of r.kept) parts.push(`kept ${k.entry} (${k.reason})`);
    if (r.gone.length) parts.push(`already gone: ${r.gone.join(', ')}`);
    if (r.danglingCurrentContext)
      parts.push(`its current-context was ${r.danglingCurrentContext}: choose another with kubectl config use-context`);
    return parts.join('; ');
  });
}

/**
 * The backup file: one YAML stream, one document per object, a comment header saying what it
 * is; written 0600 (it may hold Secrets), replaced atomically. Reading it checks every document
 * and says what is wrong in one line (a usage error: exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify, YAMLParseError } from 'yaml';
import { UsageError } from '../errors.js';
import type { ApiObject } from '../kube/api/api-resources.js';

export interface FileHeader {
  context: string;
  at: Date;
  includeSecrets: boolean;
}

/** `fleetdeck-backup-<context>-<time>.yaml` (a time a file name can hold). */
export function defaultBackupName(context: string, at: Date): string {
  return `fleetdeck-backup-${context.replace(/[^A-Za-z0-9_.-]/g, '_')}-${at.toISOString().replace(/[:.]/g, '-')}.yaml`;
}

/** The file's text: the header comment, then every object as its own document. */
export function backupText(objects: readonly ApiObject[], h: FileHeader): string {
  const head = [
    `# fleetdeck backup of the control plane (context ${h.context}), ${h.at.toISOString()}`,
    `# ${objects.length} objects; Secrets ${h.includeSecrets ? 'with their data (keep this file private)' : 'not included'}.`,
    '# Restore: fleetdeck restore FILE',
  ].join('\n');
  return `${head}\n${objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('')}`;
}

/** Writes the file 0600 through a temporary file beside it (never a half-written backup under its name). */
export function writeBackupFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A document that names an apiVersion, a kind and metadata.name (strings). */
function asApiObject(v: unknown): ApiObject | undefined {
  if (!isObject(v) || typeof v.apiVersion !== 'string' || typeof v.kind !== 'string' || !isObject(v.metadata)) return undefined;
  const m = v.metadata;
  if (typeof m.name !== 'string' || !m.name || (m.namespace !== undefined && typeof m.namespace !== 'string')) return undefined;
  return v as ApiObject;
}

/** The objects of a backup file, or a usage error naming the file and what is wrong with it. */
export function readBackupFile(file: string): ApiObject[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new UsageError(
        `backup file ${file} does not exist; give the path of a file fleetdeck backup wrote (fleetdeck backup -f FILE writes one)`,
      );
    throw new UsageError(`backup file ${file} cannot be read (${code ?? (err as Error).message})`);
  }
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return fail(file, 'holds no object to restore');
  const objects: ApiObject[] = [];
  for (const [i, doc] of docs.entries()) {
    const err = doc.errors[0];
    if (err) {
      const line = err instanceof YAMLParseError ? err.linePos?.[0]?.line : undefined;
      fail(
        file,
        `is not valid YAML (${line ? `line ${line}: ` : ''}${(err.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')})`,
      );
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const obj = asApiObject(value);
    if (!obj) fail(file, `document ${i + 1} is not a Kubernetes object (it needs apiVersion, kind and metadata.name)`);
    objects.push(obj);
  }
  if (objects.length === 0) fail(file, 'holds no object to restore');
  return objects;
}

function fail(file: string, what: string): never {
  throw new UsageError(`backup file ${file} ${what}; give a file written by fleetdeck backup`);
}

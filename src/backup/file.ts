/**
 * The backup file: one YAML stream, one document per object, a comment header saying what it
 * is, how many objects it holds and the SHA-256 of everything after the header; written 0600 (it
 * may hold Secrets), replaced atomically. Reading it checks the body against the header (a file
 * cut short on a line boundary is still valid YAML) and every document, and says what is wrong in
 * one line (a usage error: exit 2).
 */
import { createHash } from 'node:crypto';
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

/** The line that seals the body: its object count and digest. */
const SEAL = /^# fleetdeck-backup: objects=(\d+) sha256=([0-9a-f]{64})$/m;
/** The count line of files written before the seal. */
const OLD_COUNT = /^# (\d+) objects; Secrets /m;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The file's text: the header comment (with the seal of the body), then every object as its own document. */
export function backupText(objects: readonly ApiObject[], h: FileHeader): string {
  const body = objects.map((o) => `---\n${stringify(o, { lineWidth: 0 })}`).join('');
  const head = [
    `# fleetdeck backup of the control plane (context ${h.context}), ${h.at.toISOString()}`,
    `# ${objects.length} objects; Secrets ${h.includeSecrets ? 'with their data (keep this file private)' : 'not included'}.`,
    '# Restore: fleetdeck restore FILE',
    `# fleetdeck-backup: objects=${objects.length} sha256=${sha256(body)}`,
  ].join('\n');
  return `${head}\n${body}`;
}

/** The leading comment lines, and the rest. */
function splitHeader(text: string): { head: string; body: string } {
  const m = /^(?:#[^\n]*\n)*/.exec(text);
  const head = m?.[0] ?? '';
  return { head, body: text.slice(head.length) };
}

/**
 * Refuses a file whose body is not what its header says was written (cut short, or edited): by
 * the seal's digest before anything is parsed, or, in a file written before the seal, by its count.
 */
function checkSeal(file: string, text: string, objects?: number): void {
  const { head, body } = splitHeader(text);
  const seal = SEAL.exec(head);
  const edited = 'it was cut short or edited. Restore an intact copy; to restore an edited file as it is, delete its';
  if (seal) {
    if (seal[2] !== sha256(body))
      fail(
        file,
        `does not match its header (written with ${seal[1]} objects; the digest differs): ${edited} "# fleetdeck-backup:" line first`,
        false,
      );
    return;
  }
  const old = OLD_COUNT.exec(head);
  if (objects !== undefined && old && Number(old[1]) !== objects)
    fail(file, `holds ${objects} objects where its header says ${old[1]}: ${edited} "# ${old[1]} objects" line first`, false);
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
  checkSeal(file, text);
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
  checkSeal(file, text, objects.length);
  return objects;
}

function fail(file: string, what: string, hint = true): never {
  throw new UsageError(`backup file ${file} ${what}${hint ? '; give a file written by fleetdeck backup' : ''}`);
}

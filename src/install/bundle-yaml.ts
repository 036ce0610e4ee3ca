/** Manifests read as kubectl reads them: YAML 1.1, one or more documents a file, `kind: List` expanded, duplicates refused. */
import fs from 'node:fs/promises';
import { LineCounter, parseAllDocuments, type Tags } from 'yaml';
import { UserError } from '../errors.js';
import { groupOf, isRecord, type KubeObject } from './bundle-objects.js';

/** An object and where it came from (for error messages). */
export interface Loaded {
  obj: KubeObject;
  source: string;
}

export async function loadFile(file: string): Promise<Loaded[]> {
  const text = await fs.readFile(file, 'utf8');
  return parseYaml(text, file)
    .map(({ obj, line }) => ({ obj: asObject(obj, file, line), source: file }))
    .flatMap(expandList);
}

/**
 * YAML as kubectl reads it: YAML 1.1 (`0400` is octal, `yes` is true), but timestamps and
 * sexagesimal numbers stay strings. Empty documents are skipped.
 */
export function parseYaml(text: string, source: string): { obj: unknown; line: number }[] {
  const lineCounter = new LineCounter();
  const customTags = (tags: Tags) =>
    tags.filter((t) => typeof t !== 'object' || (!t.tag.endsWith(':timestamp') && !('format' in t && t.format === 'TIME')));
  const docs = parseAllDocuments(text, { version: '1.1', customTags, lineCounter, prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [];
  const out: { obj: unknown; line: number }[] = [];
  for (const doc of list) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0] ?? lineCounter.linePos(err.pos[0]);
      const message = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new UserError(`${source}:${pos.line}:${pos.col}: invalid YAML: ${message}`);
    }
    const line = lineCounter.linePos(doc.contents?.range[0] ?? doc.range[0]).line;
    let obj: unknown;
    try {
      obj = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      throw new UserError(`${source}:${line}: invalid YAML: ${(e as Error).message}`);
    }
    if (obj !== null && obj !== undefined) out.push({ obj, line });
  }
  return out;
}

export function asObject(v: unknown, source: string, line: number): KubeObject {
  const meta = isRecord(v) ? v.metadata : undefined;
  if (
    !isRecord(v) ||
    typeof v.apiVersion !== 'string' ||
    typeof v.kind !== 'string' ||
    ((!isRecord(meta) || typeof meta.name !== 'string' || meta.name === '') && !(typeof v.kind === 'string' && isList(v)))
  ) {
    throw new UserError(`${source}:${line}: not a Kubernetes object (needs apiVersion, kind and metadata.name)`);
  }
  return v as KubeObject;
}

function isList(v: Record<string, unknown>): boolean {
  return typeof v.kind === 'string' && v.kind.endsWith('List') && Array.isArray(v.items);
}

/** `kind: List` (as `kubectl get -o yaml` writes) stands for its items. */
export function expandList(l: Loaded): Loaded[] {
  if (!isList(l.obj)) return [l];
  return (l.obj.items as unknown[]).map((item) => ({ obj: asObject(item, l.source, 0), source: l.source }));
}

/** Fails when two objects have the same kind, namespace and name. */
export function unique(objs: Loaded[], dir: string): Loaded[] {
  const seen = new Map<string, string>();
  for (const { obj, source } of objs) {
    const id = `${groupOf(obj)}/${obj.kind}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const first = seen.get(id);
    if (first !== undefined) {
      const where = first === source ? source : `${first} and ${source}`;
      throw new UserError(`${dir}: ${obj.kind} ${obj.metadata.name} is defined twice (${where})`);
    }
    seen.set(id, source);
  }
  return objs;
}

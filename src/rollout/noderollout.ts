/**
 * Navarchos' NodeRollout (navarchos.pusher.com/v1alpha1) as a rollout spec's selectors and
 * names, and back. The YAML is the one Navarchos' README shows:
 *
 * ```yaml
 * apiVersion: navarchos.pusher.com/v1alpha1
 * kind: NodeRollout
 * metadata:
 *   generateName: "rollout-"
 * spec:
 *   nodeSelectors:
 *   - replacement:
 *       priority: 20
 *     matchLabels:
 *       "kubernetes.io/role": "master"
 *   nodeNames:
 *   - replacement:
 *       priority: 20
 *     name: "node-1"
 * ```
 *
 * A `priority` directly on an entry is read too. Errors are one line with the line number.
 */
import { isMap, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { UsageError } from '../errors.js';
import { NAVARCHOS_API_VERSION, NAVARCHOS_GROUP } from '../kube/navarchos/objects.js';
import { parseSelector, selectorString, type LabelSelector, type LabelSelectorRequirement } from '../kube/api/selector.js';
import { readGuardRails, type GuardsInput } from './guards/spec-file.js';
import type { RolloutSpec } from './types.js';

export interface NodeRolloutSpec {
  /** metadata.name, when the file gives one (Navarchos' examples use generateName). */
  name?: string;
  nodeSelectors: { selector: string; priority: number }[];
  nodeNames: { name: string; priority: number }[];
  /** `spec.guardRails` (fleetdeck's, src/rollout/guards/spec-file.ts): only what the file sets. */
  guards?: GuardsInput;
}

type Path = (string | number)[];
/** Throws `FILE:LINE: why`, the line of `path` in the document. */
type Fail = (path: Path, why: string) => never;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one document of the file, and how to fail at a path of it; YAML errors and several documents are UsageErrors. */
function readDocument(text: string, source: string): { doc: Document; fail: Fail } {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: true });
  const list = (Array.isArray(docs) ? docs : []).filter((d) => d.contents !== null || d.errors.length > 0);
  for (const doc of list) {
    const err = doc.errors[0];
    if (err) {
      const pos = err.linePos?.[0] ?? lineCounter.linePos(err.pos[0]);
      const message = err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new UsageError(`${source}:${pos.line}: invalid YAML: ${message}`);
    }
  }
  if (list.length === 0) throw new UsageError(`${source}: no NodeRollout in the file`);
  if (list.length > 1) {
    const line = lineCounter.linePos(list[1]!.range[0]).line;
    throw new UsageError(`${source}:${line}: more than one document; give one NodeRollout per file`);
  }
  const doc = list[0]!;
  const fail: Fail = (path, why) => {
    throw new UsageError(`${source}:${lineOfPath(doc, lineCounter, path)}: ${why}`);
  };
  return { doc, fail };
}

/** kind, apiVersion and metadata.name; the spec as a mapping of nodeSelectors and nodeNames. */
function readHeader(obj: unknown, fail: Fail): { name?: string; spec: Record<string, unknown> } {
  if (!isRecord(obj)) return fail([], 'not a NodeRollout (expected a mapping with apiVersion, kind and spec)');
  if (obj.kind !== 'NodeRollout') fail(['kind'], `kind is ${JSON.stringify(obj.kind ?? null)}, expected NodeRollout`);
  const apiVersion = obj.apiVersion;
  if (typeof apiVersion !== 'string' || !apiVersion.startsWith(`${NAVARCHOS_GROUP}/`)) {
    fail(['apiVersion'], `apiVersion is ${JSON.stringify(apiVersion ?? null)}, expected ${NAVARCHOS_API_VERSION}`);
  }
  const meta = obj.metadata;
  let name: string | undefined;
  if (isRecord(meta) && meta.name !== undefined) {
    if (typeof meta.name !== 'string') fail(['metadata', 'name'], 'metadata.name must be a string');
    name = meta.name as string;
  }
  const spec = obj.spec;
  if (!isRecord(spec)) return fail(['spec'], 'spec is missing or not a mapping (expected nodeSelectors and/or nodeNames)');
  for (const k of Object.keys(spec)) {
    if (k !== 'nodeSelectors' && k !== 'nodeNames' && k !== 'guardRails')
      fail(['spec', k], `spec.${k} is not a NodeRollout field (nodeSelectors, nodeNames, and fleetdeck's guardRails)`);
  }
  return { ...(name !== undefined ? { name } : {}), spec };
}

/** An entry's priority: `replacement.priority` (Navarchos' ReplacementSpec) or `priority`; 0 without one. */
function priorityOf(entry: Record<string, unknown>, path: Path, where: string, fail: Fail): number {
  const replacement = entry.replacement;
  let fromReplacement: unknown;
  if (replacement !== undefined && replacement !== null) {
    if (!isRecord(replacement)) fail([...path, 'replacement'], `${where}.replacement must be a mapping with a priority`);
    fromReplacement = (replacement as Record<string, unknown>).priority;
  }
  const direct = entry.priority;
  const check = (v: unknown, p: Path, label: string) => {
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v)))
      fail(p, `${label} must be a whole number, not ${JSON.stringify(v)}`);
  };
  check(fromReplacement, [...path, 'replacement', 'priority'], `${where}.replacement.priority`);
  check(direct, [...path, 'priority'], `${where}.priority`);
  if (typeof direct === 'number' && typeof fromReplacement === 'number' && direct !== fromReplacement) {
    fail(
      [...path, 'priority'],
      `${where} gives two priorities (${where}.priority ${direct} and ${where}.replacement.priority ${fromReplacement})`,
    );
  }
  // Navarchos' priority is optional; without one it is 0.
  return (fromReplacement as number | undefined) ?? (direct as number | undefined) ?? 0;
}

function seqOf(spec: Record<string, unknown>, key: 'nodeSelectors' | 'nodeNames', fail: Fail): Record<string, unknown>[] {
  const v = spec[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(['spec', key], `spec.${key} must be a list`);
  return v.map((e, i) => (isRecord(e) ? e : fail(['spec', key, i], `spec.${key}[${i}] must be a mapping`)));
}

function readMatchLabels(value: unknown, path: Path, where: string, fail: Fail): Record<string, string> {
  if (!isRecord(value)) fail([...path, 'matchLabels'], `${where}.matchLabels must be a mapping of label to value`);
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v !== 'string')
      fail([...path, 'matchLabels', k], `${where}.matchLabels["${k}"] must be a string (quote it: "${String(v)}")`);
    labels[k] = v as string;
  }
  return labels;
}

function readMatchExpressions(value: unknown, path: Path, where: string, fail: Fail): LabelSelectorRequirement[] {
  if (!Array.isArray(value)) fail([...path, 'matchExpressions'], `${where}.matchExpressions must be a list`);
  return (value as unknown[]).map((e, j): LabelSelectorRequirement => {
    const p: Path = [...path, 'matchExpressions', j];
    const w = `${where}.matchExpressions[${j}]`;
    if (!isRecord(e)) return fail(p, `${w} must be a mapping with key, operator and values`);
    if (typeof e.key !== 'string') fail([...p, 'key'], `${w}.key must be a string`);
    if (typeof e.operator !== 'string') fail([...p, 'operator'], `${w}.operator must be one of In, NotIn, Exists, DoesNotExist`);
    const values = e.values ?? [];
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
      fail([...p, 'values'], `${w}.values must be a list of strings`);
    return { key: e.key as string, operator: e.operator as string, values: values as string[] };
  });
}

function readSelectorEntry(entry: Record<string, unknown>, i: number, fail: Fail): { selector: string; priority: number } {
  const path: Path = ['spec', 'nodeSelectors', i];
  const where = `spec.nodeSelectors[${i}]`;
  for (const k of Object.keys(entry)) {
    if (!['matchLabels', 'matchExpressions', 'replacement', 'priority'].includes(k))
      fail([...path, k], `${where}.${k} is not a field (matchLabels, matchExpressions, replacement.priority)`);
  }
  const sel: LabelSelector = {};
  if (entry.matchLabels !== undefined && entry.matchLabels !== null)
    sel.matchLabels = readMatchLabels(entry.matchLabels, path, where, fail);
  if (entry.matchExpressions !== undefined && entry.matchExpressions !== null)
    sel.matchExpressions = readMatchExpressions(entry.matchExpressions, path, where, fail);
  if (!sel.matchLabels && !sel.matchExpressions)
    fail(path, `${where} has neither matchLabels nor matchExpressions (it would select every node)`);
  let selector: string;
  try {
    selector = selectorString(sel);
    parseSelector(selector);
  } catch (err) {
    return fail(path, `${where}: ${(err as Error).message}`);
  }
  return { selector, priority: priorityOf(entry, path, where, fail) };
}

function readNameEntry(entry: Record<string, unknown>, i: number, fail: Fail): { name: string; priority: number } {
  const path: Path = ['spec', 'nodeNames', i];
  const where = `spec.nodeNames[${i}]`;
  for (const k of Object.keys(entry)) {
    if (!['name', 'replacement', 'priority'].includes(k)) fail([...path, k], `${where}.${k} is not a field (name, replacement.priority)`);
  }
  if (typeof entry.name !== 'string' || entry.name === '') fail([...path, 'name'], `${where}.name must be a node name`);
  return { name: entry.name as string, priority: priorityOf(entry, path, where, fail) };
}

/** Parses a NodeRollout YAML (one document). Throws UsageError `FILE:LINE: what is wrong`. */
export function parseNodeRollout(text: string, source = 'NodeRollout'): NodeRolloutSpec {
  const { doc, fail } = readDocument(text, source);
  const { name, spec } = readHeader(doc.toJS({ maxAliasCount: 100 }), fail);
  const nodeSelectors = seqOf(spec, 'nodeSelectors', fail).map((entry, i) => readSelectorEntry(entry, i, fail));
  const nodeNames = seqOf(spec, 'nodeNames', fail).map((entry, i) => readNameEntry(entry, i, fail));
  if (nodeSelectors.length === 0 && nodeNames.length === 0)
    fail(['spec'], 'spec has no nodeSelectors and no nodeNames: it selects no node');
  const guards = spec.guardRails === undefined ? undefined : readGuardRails(spec.guardRails, fail);
  return { ...(name !== undefined ? { name } : {}), nodeSelectors, nodeNames, ...(guards ? { guards } : {}) };
}

/** The line of the deepest node of `path` the document has (1-based). */
function lineOfPath(doc: Document, lineCounter: LineCounter, path: Path): number {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    const range = (node as { range?: [number, number, number] } | undefined)?.range;
    if (range) {
      // A key of a mapping: point at the key's line rather than its value's.
      if (n > 0) {
        const parent = n === 1 ? doc.contents : doc.getIn(path.slice(0, n - 1), true);
        if (isMap(parent)) {
          const pair = parent.items.find((p) => (p.key as { value?: unknown })?.value === path[n - 1]);
          const keyRange = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
          if (keyRange) return lineCounter.linePos(keyRange[0]).line;
        } else if (isSeq(parent)) {
          return lineCounter.linePos(range[0]).line;
        }
      }
      return lineCounter.linePos(range[0]).line;
    }
  }
  return 1;
}

/**
 * A NodeRollout object for a rollout's selectors and names (`generateName: rollout-`), for
 * handing the work to a Navarchos controller. Selectors become matchExpressions (`>` and `<`
 * have no LabelSelector form: a UsageError).
 */
export function nodeRolloutObject(spec: Pick<RolloutSpec, 'nodeSelectors' | 'nodeNames'>): Record<string, unknown> {
  return {
    apiVersion: NAVARCHOS_API_VERSION,
    kind: 'NodeRollout',
    metadata: { generateName: 'rollout-' },
    spec: {
      ...(spec.nodeSelectors.length
        ? {
            nodeSelectors: spec.nodeSelectors.map((s) => ({
              replacement: { priority: s.priority },
              matchExpressions: parseSelector(s.selector).map((r) => {
                if (r.operator === 'Gt' || r.operator === 'Lt')
                  throw new UsageError(`selector "${s.selector}": "${r.operator === 'Gt' ? '>' : '<'}" has no NodeRollout form`);
                return { key: r.key, operator: r.operator, ...(r.values.length ? { values: r.values } : {}) };
              }),
            })),
          }
        : {}),
      ...(spec.nodeNames.length ? { nodeNames: spec.nodeNames.map((n) => ({ replacement: { priority: n.priority }, name: n.name })) } : {}),
    },
  };
}

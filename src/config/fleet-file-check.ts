/**
 * Reads the fleet file and checks it: one fleet at the top, or several under `fleets:` with an
 * optional `current`. Every error names the file and the line (`fleet.yaml line 2: unknown field
 * "workload"`), exit 2.
 */
import fs from 'node:fs';
import { type Document, isMap, type YAMLMap, YAMLParseError, parseDocument } from 'yaml';
import { UserError } from '../errors.js';
import type { FleetFile } from './fleet-config.js';
import { checkIdentities } from './fleet-identity.js';
import { checkFleetName, fleetsOf, type FleetsDoc } from './fleets.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const FLEET_FIELDS = ['hostingContext', 'controlPlaneContext', 'namespace', 'workloads', 'kubeconfig', 'inClusterRollouts', 'identities'];

type Fail = (line: number | undefined, what: string) => never;

function failIn(file: string): Fail {
  return (line, what) => {
    throw new UserError(`${file}${line ? ` line ${line}` : ''}: ${what}; fix the fleet file or pass --hosting-context`, 2);
  };
}

/** The line of `key` in the mapping `map` of `text`. */
function keyLine(text: string, map: unknown, key: string): number | undefined {
  const items = isMap(map) ? (map as YAMLMap).items : [];
  const pair = items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
  const offset = (pair?.key as { range?: [number] } | null)?.range?.[0];
  return offset === undefined ? undefined : text.slice(0, offset).split('\n').length;
}

/** Parses the file's text; undefined when it does not exist. */
function parsed(file: string): { text: string; doc: Document; value: unknown } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UserError(`${file}: cannot be read (${(err as Error).message})`, 2);
  }
  const doc = parseDocument(text);
  const first = doc.errors[0];
  if (first) {
    const line = first instanceof YAMLParseError ? first.linePos?.[0]?.line : undefined;
    const what = (first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    failIn(file)(line, `not valid YAML (${what})`);
  }
  return { text, doc, value: doc.toJS() };
}

/** Reads and checks the fleet file: its fleets by name; none when it does not exist or is empty. */
export function readFleetsDoc(file: string): FleetsDoc {
  const p = parsed(file);
  if (!p || p.value === null || p.value === undefined) return fleetsOf(undefined);
  const fail: Fail = failIn(file);
  const { text, doc, value } = p;
  if (typeof value !== 'object' || Array.isArray(value))
    fail(1, 'expected a mapping with hostingContext, controlPlaneContext, namespace, workloads');
  const obj = value as Record<string, unknown>;
  if (!('fleets' in obj)) return fleetsOf(checkFleet(obj, (k) => keyLine(text, doc.contents, k), fail, ''));
  for (const key of Object.keys(obj)) {
    if (key !== 'fleets' && key !== 'current')
      fail(
        keyLine(text, doc.contents, key),
        `unknown field "${key}" beside fleets (known: current, fleets; a fleet's fields go under its name)`,
      );
  }
  const fleets = obj.fleets as Record<string, unknown> | null;
  if (typeof fleets !== 'object' || fleets === null || Array.isArray(fleets))
    fail(keyLine(text, doc.contents, 'fleets'), '"fleets" must be a mapping of fleet names');
  const out: Record<string, FleetFile> = {};
  for (const [name, body] of Object.entries(fleets)) {
    const line = keyLine(text, doc.get('fleets', true), name);
    try {
      checkFleetName(name, 'fleets');
    } catch (err) {
      fail(line, (err as Error).message);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      fail(line, `"fleets.${name}" must be a mapping with hostingContext, workloads, …`);
    const node = doc.getIn(['fleets', name], true);
    out[name] = checkFleet(body as Record<string, unknown>, (k) => keyLine(text, node, k), fail, `fleets.${name}.`);
  }
  if (obj.current !== undefined && (typeof obj.current !== 'string' || !out[obj.current]))
    fail(keyLine(text, doc.contents, 'current'), `"current" must name one of the fleets (${Object.keys(out).join(', ') || 'none'})`);
  return fleetsOf({ ...(typeof obj.current === 'string' ? { current: obj.current } : {}), fleets: out });
}

/** Checks one fleet's fields (`at`: where it is, for the messages). */
function checkFleet(obj: Record<string, unknown>, lineOfKey: (key: string) => number | undefined, fail: Fail, at: string): FleetFile {
  for (const key of Object.keys(obj)) {
    if (!FLEET_FIELDS.includes(key)) fail(lineOfKey(key), `unknown field "${at}${key}" (known: ${FLEET_FIELDS.join(', ')})`);
  }
  for (const key of ['hostingContext', 'controlPlaneContext', 'namespace', 'kubeconfig']) {
    if (obj[key] !== undefined && (typeof obj[key] !== 'string' || obj[key] === ''))
      fail(lineOfKey(key), `"${at}${key}" must be a non-empty string`);
  }
  if (typeof obj.namespace === 'string' && !DNS_LABEL.test(obj.namespace)) {
    fail(lineOfKey('namespace'), `"${obj.namespace}" is not a valid namespace name`);
  }
  if (obj.workloads !== undefined) {
    if (!Array.isArray(obj.workloads)) fail(lineOfKey('workloads'), `"${at}workloads" must be a list`);
    for (const w of obj.workloads) {
      const ok = typeof w === 'string' || (typeof w === 'object' && w !== null && typeof (w as { context?: unknown }).context === 'string');
      if (!ok) fail(lineOfKey('workloads'), 'each workload is a context name or {context, clusterName}');
    }
  }
  if (obj.inClusterRollouts !== undefined) checkInCluster(obj.inClusterRollouts, (what) => fail(lineOfKey('inClusterRollouts'), what));
  if (obj.identities !== undefined) checkIdentities(obj.identities, (what) => fail(lineOfKey('identities'), what));
  return obj as FleetFile;
}

function checkInCluster(v: unknown, bad: (what: string) => never): void {
  const o = v as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) bad('"inClusterRollouts" must be a mapping with contexts, image, namespace');
  const contexts = o.contexts;
  if (!Array.isArray(contexts) || contexts.some((c) => typeof c !== 'string' || !c))
    bad('"inClusterRollouts.contexts" must be a list of context names');
  for (const key of Object.keys(o))
    if (!['contexts', 'image', 'namespace'].includes(key))
      bad(`unknown field "inClusterRollouts.${key}" (known: contexts, image, namespace)`);
  for (const key of ['image', 'namespace'])
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key] === '')) bad(`"inClusterRollouts.${key}" must be a non-empty string`);
  if (typeof o.namespace === 'string' && !DNS_LABEL.test(o.namespace)) bad(`"${o.namespace}" is not a valid namespace name`);
}

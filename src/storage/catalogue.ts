/**
 * The storage catalogue: what an installation stores, as features → components → volumes, each
 * volume with its kind (shared: replicated storage every node must hold; unshared: node-local,
 * e.g. an LVM logical volume) and its default size in GB. Read from YAML; every mistake in the
 * file is one line naming the file and the line.
 *
 *   name: kloudspot-example
 *   features:
 *     - name: kloudinsights
 *       label: KloudInsights
 *       default: true
 *       components:
 *         - name: stream-processing
 *           label: Stream processing
 *           volumes:
 *             - name: insights-elasticsearch
 *               label: Stream processing elasticsearch
 *               kind: shared
 *               defaultGB: 10
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, YAMLParseError, type Node, type Pair, type Scalar } from 'yaml';
import { UsageError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';

export type VolumeKind = 'shared' | 'unshared';
export interface CatalogueVolume {
  name: string;
  label: string;
  kind: VolumeKind;
  defaultGB: number;
}
export interface CatalogueComponent {
  name: string;
  label: string;
  volumes: CatalogueVolume[];
}
export interface CatalogueFeature {
  name: string;
  label: string;
  /** Enabled unless the user says otherwise. */
  default: boolean;
  description?: string;
  components: CatalogueComponent[];
}
export interface Catalogue {
  name: string;
  description?: string;
  features: CatalogueFeature[];
  /** The file it was read from. */
  file?: string;
}

/** The catalogues shipped in the package (src/storage/catalogues, listed in package.json `files`). */
export const CATALOGUES_DIR = path.join(PACKAGE_ROOT, 'src', 'storage', 'catalogues');
/** The hosted control plane's own volumes (etcd). */
export const DEFAULT_CATALOGUE_FILE = path.join(CATALOGUES_DIR, 'default.yaml');
/** An application stack's volumes, as in the Kloudspot storage dialogue. */
export const EXAMPLE_CATALOGUE_FILE = path.join(CATALOGUES_DIR, 'kloudspot-example.yaml');

/** Names are used on the command line (`--features a,b`, `--size NAME=GB`): no `,`, `=` or spaces. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const KNOWN = {
  catalogue: ['name', 'description', 'features'],
  feature: ['name', 'label', 'description', 'default', 'components'],
  component: ['name', 'label', 'volumes'],
  volume: ['name', 'label', 'kind', 'defaultGB'],
} as const;

class Reader {
  constructor(
    readonly file: string,
    readonly lc: LineCounter,
  ) {}

  line(node: { range?: [number, number, number] | null } | null | undefined, fallback = 1): number {
    const offset = node?.range?.[0];
    return offset === undefined ? fallback : this.lc.linePos(offset).line;
  }

  fail(line: number, what: string): never {
    throw new UsageError(`${this.file} line ${line}: ${what}`);
  }

  /** The fields of a mapping, checked against the known names; each with its key's line. */
  fields(node: Node | null, what: string, known: readonly string[], at: number): Map<string, { value: Node | null; line: number }> {
    if (!isMap(node)) this.fail(this.line(node, at), `${what} must be a mapping with ${known.join(', ')}`);
    const out = new Map<string, { value: Node | null; line: number }>();
    for (const pair of node.items as Pair<Node | null, Node | null>[]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const line = this.line(pair.key, this.line(node, at));
      if (key === undefined || !known.includes(key))
        this.fail(line, `${what} has an unknown field "${key ?? '?'}" (known: ${known.join(', ')})`);
      out.set(key, { value: pair.value, line });
    }
    return out;
  }

  string(f: { value: Node | null; line: number } | undefined, what: string): string | undefined {
    if (!f) return undefined;
    const v = isScalar(f.value) ? (f.value as Scalar).value : undefined;
    if (typeof v !== 'string' || v.trim() === '') this.fail(this.line(f.value, f.line), `${what} must be a non-empty string`);
    return v.trim();
  }

  name(fields: Map<string, { value: Node | null; line: number }>, what: string, at: number): string {
    const name = this.string(fields.get('name'), `the name of ${what}`);
    if (name === undefined) this.fail(at, `${what} has no name`);
    if (!NAME.test(name))
      this.fail(
        this.line(fields.get('name')!.value, at),
        `"${name}" is not a valid name for ${what} (letters, digits, ".", "_" and "-", starting with a letter or digit)`,
      );
    return name;
  }

  list(f: { value: Node | null; line: number } | undefined, what: string, at: number): Node[] {
    if (!f) this.fail(at, `${what} is missing`);
    if (!isSeq(f.value) || f.value.items.length === 0) this.fail(this.line(f.value, f.line), `${what} must be a non-empty list`);
    return f.value.items as Node[];
  }
}

/** Parses and checks a catalogue's text; `file` names it in errors. */
export function parseCatalogue(text: string, file: string): Catalogue {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const r: Reader = new Reader(file, lc);
  const first = doc.errors[0];
  if (first) {
    const line = first instanceof YAMLParseError ? (first.linePos?.[0]?.line ?? 1) : 1;
    const what = (first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    r.fail(line, `not valid YAML (${what})`);
  }
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && root.value === null)) r.fail(1, 'the catalogue is empty (expected name and features)');
  const top = r.fields(root, 'the catalogue', KNOWN.catalogue, 1);
  const catalogueName = top.has('name') ? r.string(top.get('name'), 'the catalogue name')! : path.basename(file).replace(/\.ya?ml$/i, '');
  const description = r.string(top.get('description'), 'the description');

  const features: CatalogueFeature[] = [];
  const volumeLines = new Map<string, number>();
  for (const fNode of r.list(top.get('features'), '"features"', 1)) {
    const at = r.line(fNode);
    const f = r.fields(fNode, 'a feature', KNOWN.feature, at);
    const name = r.name(f, 'a feature', at);
    const previous = features.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (previous) r.fail(r.line(f.get('name')!.value, at), `feature "${name}" is defined twice`);
    const label = r.string(f.get('label'), `the label of feature "${name}"`) ?? name;
    const fDescription = r.string(f.get('description'), `the description of feature "${name}"`);
    let enabled = false;
    const def = f.get('default');
    if (def) {
      const v = isScalar(def.value) ? def.value.value : undefined;
      if (typeof v !== 'boolean') r.fail(r.line(def.value, def.line), `"default" of feature "${name}" must be true or false`);
      enabled = v;
    }
    const components: CatalogueComponent[] = [];
    for (const cNode of r.list(f.get('components'), `"components" of feature "${name}"`, at)) {
      const cAt = r.line(cNode, at);
      const c = r.fields(cNode, `a component of feature "${name}"`, KNOWN.component, cAt);
      const cName = r.name(c, `a component of feature "${name}"`, cAt);
      if (components.some((x) => x.name === cName))
        r.fail(r.line(c.get('name')!.value, cAt), `component "${cName}" is defined twice in feature "${name}"`);
      const cLabel = r.string(c.get('label'), `the label of component "${cName}"`) ?? cName;
      const volumes: CatalogueVolume[] = [];
      for (const vNode of r.list(c.get('volumes'), `"volumes" of component "${cName}"`, cAt)) {
        const vAt = r.line(vNode, cAt);
        const v = r.fields(vNode, `a volume of component "${cName}"`, KNOWN.volume, vAt);
        const vName = r.name(v, `a volume of component "${cName}"`, vAt);
        const vLine = r.line(v.get('name')!.value, vAt);
        const seen = volumeLines.get(vName);
        if (seen !== undefined)
          r.fail(vLine, `volume "${vName}" is defined twice (first on line ${seen}); volume names are unique in a catalogue`);
        volumeLines.set(vName, vLine);
        const vLabel = r.string(v.get('label'), `the label of volume "${vName}"`) ?? vName;
        const kindField = v.get('kind');
        if (!kindField) r.fail(vAt, `volume "${vName}" has no kind (shared or unshared)`);
        const kind = isScalar(kindField.value) ? kindField.value.value : undefined;
        if (kind !== 'shared' && kind !== 'unshared')
          r.fail(
            r.line(kindField.value, kindField.line),
            `the kind of volume "${vName}" must be shared or unshared (got ${JSON.stringify(kind ?? null)})`,
          );
        const sizeField = v.get('defaultGB');
        if (!sizeField) r.fail(vAt, `volume "${vName}" has no defaultGB (its default size in GB)`);
        const size = isScalar(sizeField.value) ? sizeField.value.value : undefined;
        if (typeof size !== 'number' || !Number.isFinite(size) || size <= 0) {
          r.fail(
            r.line(sizeField.value, sizeField.line),
            `defaultGB of volume "${vName}" must be a number of GB greater than 0 (got ${typeof size === 'number' ? String(size) : JSON.stringify(size ?? null)})`,
          );
        }
        volumes.push({ name: vName, label: vLabel, kind, defaultGB: size });
      }
      components.push({ name: cName, label: cLabel, volumes });
    }
    features.push({ name, label, default: enabled, ...(fDescription ? { description: fDescription } : {}), components });
  }
  return { name: catalogueName, ...(description ? { description } : {}), features, file };
}

/** The catalogues shipped with fleetdeck, by name (the file name without .yaml). */
export function shippedCatalogues(): string[] {
  try {
    return fs
      .readdirSync(CATALOGUES_DIR)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

/**
 * `--catalogue X`: a file, or the name of a shipped catalogue (`default`, `kloudspot-example`)
 * when no such file exists.
 */
export function resolveCatalogueFile(arg: string | undefined): string {
  if (arg === undefined) return DEFAULT_CATALOGUE_FILE;
  if (!fs.existsSync(arg) && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(arg)) {
    const shipped = path.join(CATALOGUES_DIR, `${arg.replace(/\.ya?ml$/, '')}.yaml`);
    if (fs.existsSync(shipped)) return shipped;
    if (!arg.includes('.'))
      throw new UsageError(`catalogue ${arg} does not exist (a file, or one of fleetdeck's: ${shippedCatalogues().join(', ')})`);
  }
  return arg;
}

/** Reads a catalogue file (default: the control plane's own, shipped with fleetdeck). */
export function loadCatalogue(file: string = DEFAULT_CATALOGUE_FILE): Catalogue {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`catalogue ${file} does not exist`);
    if (code === 'EISDIR') throw new UsageError(`catalogue ${file} is a directory, not a YAML file`);
    throw new UsageError(`catalogue ${file} cannot be read (${(err as Error).message.split('\n')[0]})`);
  }
  return parseCatalogue(text, file);
}

/** Every volume of the catalogue with the feature and component it belongs to, in file order. */
export function catalogueVolumes(catalogue: Catalogue): (CatalogueVolume & { feature: string; component: string })[] {
  return catalogue.features.flatMap((f) =>
    f.components.flatMap((c) => c.volumes.map((v) => ({ ...v, feature: f.name, component: c.name }))),
  );
}

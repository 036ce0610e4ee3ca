/**
 * The overlays the guide installs with (`kubectl apply -k overlays/cp-ha`, `overlays/workload-cluster-N`),
 * honoured in full: an overlay that does more than list its base and pin `images:` (patches,
 * `replicas`, `commonLabels`, generators, extra resources, ...) is rendered with `kubectl kustomize`
 * and its objects replace the base's. The install's own parts (namespace, HA or not, each
 * cluster's name, the certificates' Secrets) are applied on top, as for the base.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { isRecord, KUSTOMIZATION_FILES } from './bundle-objects.js';
import { renderKustomization } from './bundle-kustomize.js';
import { type Loaded, parseYaml } from './bundle-yaml.js';

/** Fields the install reads itself without rendering: the base and the images' pins. */
const PLAIN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'images']);

/**
 * Fields the install cannot honour: it refers to the control plane's objects and Secrets by their
 * names (apiserver, etcd, nova-apiserver-certs, ...), so renaming them breaks it.
 */
const UNSUPPORTED: Record<string, string> = {
  namePrefix: "the install refers to the bundle's objects and Secrets by name",
  nameSuffix: "the install refers to the bundle's objects and Secrets by name",
};

/** One overlay as read: where it is, its fields, and its rendered objects when it needs rendering. */
export interface Overlay {
  /** `overlays/cp-ha`, `overlays/workload-cluster-1`. */
  name: string;
  /** Its kustomization's fields (apiVersion and kind aside), in file order. */
  fields: string[];
  /** The objects `kubectl kustomize` gives, when `fields` go beyond `resources` and `images`. */
  objects?: Loaded[];
}

/** The kustomization file of `dir`, or undefined when it has none. */
async function kustomizationFile(dir: string): Promise<string | undefined> {
  for (const name of KUSTOMIZATION_FILES) {
    const file = path.join(dir, name);
    try {
      if ((await fs.stat(file)).isFile()) return file;
    } catch {
      // not this name
    }
  }
  return undefined;
}

/**
 * The overlay `root/overlays/<name>`, or undefined when there is none.
 *
 * @throws UserError naming the file and field when it uses a field the install cannot honour,
 *   and (from `kubectl kustomize`) when it does not render, e.g. a broken patch.
 */
export async function loadOverlay(root: string, name: string, kubectl: string): Promise<Overlay | undefined> {
  const dir = path.join(root, 'overlays', name);
  const file = await kustomizationFile(dir);
  if (!file) return undefined;
  const k = parseYaml(await fs.readFile(file, 'utf8'), file)[0]?.obj ?? {};
  if (!isRecord(k)) throw new UserError(`${file}: not a kustomization (expected a mapping)`);
  const fields = Object.keys(k).filter((f) => f !== 'apiVersion' && f !== 'kind');
  for (const f of fields) {
    const why = UNSUPPORTED[f];
    if (why) throw new UserError(`${file}: ${f} is not supported (${why}); remove it`, 2);
  }
  const label = `overlays/${name}`;
  if (fields.every((f) => PLAIN_FIELDS.has(f))) return { name: label, fields };
  return { name: label, fields, objects: await renderKustomization(dir, kubectl) };
}

/** The overlays the agent is installed with (`overlays/workload-cluster-*`), sorted by name. */
export async function agentOverlayNames(root: string): Promise<string[]> {
  try {
    return (await fs.readdir(path.join(root, 'overlays'), { withFileTypes: true }))
      .filter((e) => e.isDirectory() && e.name.startsWith('workload-cluster'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** `overlays/cp-ha: patches, replicas, images` — what the plan says an overlay applied. */
export function overlayLine(o: Pick<Overlay, 'name' | 'fields'>): string {
  return `${o.name}: ${o.fields.length ? o.fields.join(', ') : 'nothing'}`;
}

/**
 * An overlay's objects in the order of the base's (kustomize sorts by kind): the plan lists the
 * images in manifest order either way. Objects the base does not have follow, in rendered order.
 */
export function inBaseOrder(rendered: readonly Loaded[], base: readonly Loaded[]): Loaded[] {
  const key = (l: Loaded) => `${l.obj.kind}/${l.obj.metadata.name}`;
  const at = new Map(base.map((l, i) => [key(l), i]));
  const rank = (l: Loaded) => at.get(key(l)) ?? base.length;
  return rendered
    .map((l, i) => ({ l, i }))
    .sort((a, b) => rank(a.l) - rank(b.l) || a.i - b.i)
    .map(({ l }) => l);
}

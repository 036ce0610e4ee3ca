/**
 * The images of a bundle: the pod specs of its workloads, the images they run, and kustomize's
 * `images:` transformer, which the install applies from the overlays the guide installs with
 * (`overlays/cp-ha` for the control plane, `overlays/workload-cluster-*` for the agent): a release
 * that pins its image names and tags there runs those images, as `kubectl apply -k` would.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { UserError } from '../errors.js';
import { groupOf, isRecord, KUSTOMIZATION_FILES, type KubeObject } from './bundle-objects.js';
import { parseYaml } from './bundle-yaml.js';
import { agentOverlayNames } from './bundle-overlays.js';

/** One entry of a kustomization's `images:`. */
export interface ImageOverride {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

/** Kinds whose pod template is `spec.template.spec`. */
const TEMPLATED = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'ReplicationController']);

/** The pod spec of a workload object (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob), or undefined. */
export function podSpecOf(o: KubeObject): Record<string, unknown> | undefined {
  const spec = o.spec;
  if (!isRecord(spec)) return undefined;
  const group = groupOf(o);
  if (o.kind === 'Pod' && group === '') return spec;
  const template = (t: unknown) => (isRecord(t) && isRecord(t.spec) ? t.spec : undefined);
  if (TEMPLATED.has(o.kind) && ['', 'apps', 'batch'].includes(group)) return template(spec.template);
  if (o.kind === 'CronJob' && group === 'batch') {
    const job = spec.jobTemplate;
    return isRecord(job) && isRecord(job.spec) ? template(job.spec.template) : undefined;
  }
  return undefined;
}

/** The containers and init containers of every workload among `objs`. */
function containersOf(objs: readonly KubeObject[]): Record<string, unknown>[] {
  return objs.flatMap((o) => {
    const pod = podSpecOf(o);
    if (!pod) return [];
    return (['initContainers', 'containers'] as const).flatMap((key) => {
      const list = pod[key];
      return Array.isArray(list) ? list.filter(isRecord) : [];
    });
  });
}

/** The images of the containers and init containers of every workload among `objs`, in order, each once. */
export function bundleImages(objs: readonly KubeObject[]): string[] {
  const images: string[] = [];
  for (const c of containersOf(objs)) {
    const image = typeof c.image === 'string' ? c.image.trim() : '';
    if (image && !images.includes(image)) images.push(image);
  }
  return images;
}

/** `registry:5000/a/b:tag@sha256:…` → its name (`registry:5000/a/b`): the part a kustomization's `images:` matches. */
export function imageName(image: string): string {
  const at = image.indexOf('@');
  const bare = at < 0 ? image : image.slice(0, at);
  const colon = bare.lastIndexOf(':');
  return colon > bare.lastIndexOf('/') ? bare.slice(0, colon) : bare;
}

/** One image with an override applied, as kustomize's image transformer does. */
export function overrideImage(image: string, o: ImageOverride): string {
  const name = imageName(image);
  if (name !== o.name) return image;
  const rest = image.slice(name.length);
  const newName = o.newName ?? name;
  if (o.digest) return `${newName}@${o.digest}`;
  if (o.newTag) return `${newName}:${o.newTag}`;
  return `${newName}${rest}`;
}

/** The objects with every override of `images` applied to their containers' images (new objects). */
export function withImages(objs: readonly KubeObject[], images: readonly ImageOverride[]): KubeObject[] {
  const out = objs.map((o) => structuredClone(o));
  if (images.length === 0) return out;
  for (const c of containersOf(out)) {
    if (typeof c.image !== 'string') continue;
    c.image = images.reduce((image, o) => overrideImage(image, o), c.image);
  }
  return out;
}

/** The `images:` of the kustomization in `dir` (none when it has no kustomization or no images). */
export async function kustomizationImages(dir: string): Promise<ImageOverride[]> {
  for (const name of KUSTOMIZATION_FILES) {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      continue;
    }
    parseYaml(text, file); // invalid YAML: one line naming file and line
    // Every scalar a string, as kustomize reads these fields: `newTag: 1.20` stays "1.20".
    const k: unknown = parseDocument(text, { schema: 'failsafe' }).toJS();
    const images = isRecord(k) ? k.images : undefined;
    if (images === undefined) return [];
    if (!Array.isArray(images)) throw new UserError(`${file}: images must be a list`);
    return images.map((i, n) => {
      if (!isRecord(i) || typeof i.name !== 'string' || i.name === '')
        throw new UserError(`${file}: images[${n}] needs a name (the image it replaces)`);
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const newName = str(i.newName);
      const newTag = str(i.newTag);
      const digest = str(i.digest);
      return { name: i.name, ...(newName ? { newName } : {}), ...(newTag ? { newTag } : {}), ...(digest ? { digest } : {}) };
    });
  }
  return [];
}

/**
 * The `images:` of the overlays the guide installs the agent with (`overlays/workload-cluster-*`):
 * one list, as they must agree (a release pins one agent image).
 *
 * @throws UserError when two overlays give the same image different replacements.
 */
export async function agentOverlayImages(root: string): Promise<ImageOverride[]> {
  const overlays = path.join(root, 'overlays');
  const names = await agentOverlayNames(root);
  const seen = new Map<string, { o: ImageOverride; from: string }>();
  for (const n of names) {
    for (const o of await kustomizationImages(path.join(overlays, n))) {
      const first = seen.get(o.name);
      if (first && JSON.stringify(first.o) !== JSON.stringify(o)) {
        throw new UserError(
          `overlays/${first.from} and overlays/${n} replace image ${o.name} differently: make them agree (fleetdeck installs one agent image on every cluster)`,
        );
      }
      if (!first) seen.set(o.name, { o, from: n });
    }
  }
  return [...seen.values()].map((v) => v.o);
}

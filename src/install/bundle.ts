/**
 * The install bundle: its loader (this file), the objects' types (bundle-objects), YAML
 * (bundle-yaml), kustomizations through kubectl (bundle-kustomize), the transforms for a
 * namespace, HA and a cluster name (bundle-transforms) and the permissions it needs
 * (bundle-permissions).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import { type Bundle, groupOf, isRecord, KUSTOMIZATION_FILES, type KubeObject, type LoadBundleOptions } from './bundle-objects.js';
import { renderKustomization } from './bundle-kustomize.js';
import { loadFile, type Loaded, parseYaml, unique } from './bundle-yaml.js';
import { agentOverlayImages, kustomizationImages, withImages } from './bundle-images.js';
import { agentOverlayNames, inBaseOrder, loadOverlay, type Overlay } from './bundle-overlays.js';

export * from './bundle-objects.js';
export { forNamespace, withClusterName, withHA, withoutHA } from './bundle-transforms.js';
export { requiredPermissions } from './bundle-permissions.js';

/** The bundle shipped with fleetdeck, laid out like Nova's `install/` directory. */
export const DEFAULT_BUNDLE_DIR = path.join(PACKAGE_ROOT, 'src', 'install', 'bundle');

/**
 * Loads an install bundle laid out like Nova's `install/` directory: `base/control-plane` (the
 * apiserver Service, etcd, the API server, controller manager and scheduler, the CRDs) and
 * `base/agent`. Without `dir`, the bundle shipped with fleetdeck ({@link DEFAULT_BUNDLE_DIR}).
 *
 * Each of the two directories is either plain (every `*.yaml`/`*.yml` file, sorted by name,
 * any number of documents each) or a kustomization directory (a `kustomization.yaml`,
 * `kustomization.yml` or `Kustomization` file). A kustomization is rendered with
 * `kubectl kustomize DIR`; one that only lists local files under `resources:` (as the default
 * bundle's) is read directly, since kustomize would return those files unchanged. Manifests
 * beside a kustomization that it does not use are part of the bundle too: Nova's install
 * guide applies `apiserver.yaml` and `nova_crds.yaml` on their own with `kubectl create -f`.
 *
 * `dir` may also be a directory holding such an `install/` directory. The overlays the guide
 * installs with are honoured: `overlays/cp-ha` for the control plane, the first
 * `overlays/workload-cluster-*` for the agent. One that only lists its base and `images:` has
 * its images applied; one with more (patches, replicas, commonLabels, generators, ...) is
 * rendered with `kubectl kustomize` and its objects stand for the base's (bundle-overlays). The
 * install then sets its own parts on them as on the base. The built-in bundle's overlays are
 * what the install's HA and cluster-name transforms do, so it is read from its base.
 *
 * @throws UserError when the layout is wrong, a file is not valid YAML (naming file and line),
 *   a document is not a Kubernetes object, the apiserver Service is missing, an object is
 *   defined twice, or a kustomization needs kubectl and kubectl is not on PATH or fails.
 */
export async function loadBundle(dir: string = DEFAULT_BUNDLE_DIR, opts: LoadBundleOptions = {}): Promise<Bundle> {
  const root = await bundleRoot(path.resolve(dir));
  const cpDir = path.join(root, 'base', 'control-plane');
  const agentDir = path.join(root, 'base', 'agent');
  const kubectl = opts.kubectl ?? 'kubectl';
  const builtIn = path.resolve(root) === path.resolve(DEFAULT_BUNDLE_DIR);
  const cpOverlay = builtIn ? undefined : await loadOverlay(root, 'cp-ha', kubectl);
  const agentOverlay = builtIn ? undefined : await firstAgentOverlay(root, kubectl);
  const cp = unique(await loadDirectory(cpDir, opts, cpOverlay?.objects), cpOverlay?.objects ? `overlays/cp-ha over ${cpDir}` : cpDir);
  const agent = unique(
    await loadDirectory(agentDir, opts, agentOverlay?.objects),
    agentOverlay?.objects ? `${agentOverlay.name} over ${agentDir}` : agentDir,
  );

  const services = cp.filter(({ obj }) => obj.kind === 'Service' && groupOf(obj) === '' && obj.metadata.name === 'apiserver');
  const service = services[0];
  if (!service) {
    throw new UserError(`${cpDir} has no Service named apiserver (the API server's LoadBalancer Service)`);
  }
  const type = (service.obj.spec as { type?: unknown } | undefined)?.type;
  if (type !== 'LoadBalancer') {
    throw new UserError(
      `${service.source}: Service apiserver must be of type LoadBalancer (it is ${type === undefined ? 'ClusterIP' : String(type)})`,
    );
  }
  const isCrd = (o: KubeObject) => o.kind === 'CustomResourceDefinition' && groupOf(o) === 'apiextensions.k8s.io';
  // The images the guide's overlays pin (kubectl apply -k overlays/cp-ha, overlays/workload-cluster-N).
  const cpImages = await kustomizationImages(path.join(root, 'overlays', 'cp-ha'));
  const agentImages = await agentOverlayImages(root);
  return {
    service: service.obj,
    controlPlane: withImages(
      cp.filter((l) => l !== service && !isCrd(l.obj)).map((l) => l.obj),
      cpImages,
    ),
    crds: cp.filter((l) => isCrd(l.obj)).map((l) => l.obj),
    agent: withImages(
      agent.map((l) => l.obj),
      agentImages,
    ),
    source: root,
    overlays: [cpOverlay, agentOverlay].filter((o): o is Overlay => o !== undefined).map(({ name, fields }) => ({ name, fields })),
  };
}

/** The first `overlays/workload-cluster-*` with a kustomization (they differ only in the cluster's name). */
async function firstAgentOverlay(root: string, kubectl: string): Promise<Overlay | undefined> {
  for (const name of await agentOverlayNames(root)) {
    const overlay = await loadOverlay(root, name, kubectl);
    if (overlay) return overlay;
  }
  return undefined;
}

/** The directory holding base/control-plane and base/agent: `dir` itself or its `install/`. */
async function bundleRoot(dir: string): Promise<string> {
  if (!(await isDirectory(dir))) {
    throw new UserError(`${dir} is not a directory (expected a bundle laid out like Nova's install/: base/control-plane and base/agent)`);
  }
  const has = async (d: string) =>
    (await isDirectory(path.join(d, 'base', 'control-plane'))) || (await isDirectory(path.join(d, 'base', 'agent')));
  const nested = path.join(dir, 'install');
  const root = !(await has(dir)) && (await has(nested)) ? nested : dir;
  const missing: string[] = [];
  for (const part of ['base/control-plane', 'base/agent']) {
    if (!(await isDirectory(path.join(root, ...part.split('/'))))) missing.push(part);
  }
  if (missing.length > 0) {
    throw new UserError(
      `${root} is not a Nova install bundle: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing (expected base/control-plane and base/agent, as Nova's install/ directory)`,
    );
  }
  return root;
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}

const isManifestName = (name: string) => /\.ya?ml$/i.test(name) && !(KUSTOMIZATION_FILES as readonly string[]).includes(name);

/**
 * The objects of one directory: plain, or a kustomization plus the manifests beside it it does
 * not use. `overlaid`: an overlay's rendering, standing for the kustomization's objects.
 */
async function loadDirectory(dir: string, opts: LoadBundleOptions, overlaid?: Loaded[]): Promise<Loaded[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const kustomization = KUSTOMIZATION_FILES.find((k) => entries.some((e) => e.isFile() && e.name === k));
  const manifests = entries
    .filter((e) => e.isFile() && isManifestName(e.name))
    .map((e) => e.name)
    .sort();
  if (!kustomization) {
    if (manifests.length === 0) throw new UserError(`${dir} has no manifests (*.yaml or *.yml files)`);
    return (await Promise.all(manifests.map((m) => loadFile(path.join(dir, m))))).flat();
  }
  const kfile = path.join(dir, kustomization);
  const k = parseYaml(await fs.readFile(kfile, 'utf8'), kfile)[0]?.obj ?? {};
  if (!isRecord(k)) throw new UserError(`${kfile}: not a kustomization (expected a mapping)`);
  const used = referencedNames(k);
  const base = (await resourcesOnly(k, dir))
    ? await loadListedResources(k, dir)
    : await renderKustomization(dir, opts.kubectl ?? 'kubectl');
  const rendered = overlaid ? inBaseOrder(overlaid, base) : base;
  const loose = manifests.filter((m) => !used.has(m));
  const beside = (await Promise.all(loose.map((m) => loadFile(path.join(dir, m))))).flat();
  return [...rendered, ...beside];
}

/** Whether a kustomization only lists local files under `resources:`: kustomize would return them as they are. */
async function resourcesOnly(k: Record<string, unknown>, dir: string): Promise<boolean> {
  if (!Object.keys(k).every((key) => key === 'apiVersion' || key === 'kind' || key === 'resources')) return false;
  const resources = k.resources ?? [];
  if (!Array.isArray(resources)) return false;
  for (const r of resources) {
    if (typeof r !== 'string' || !isManifestName(path.basename(r))) return false;
    const file = path.resolve(dir, r);
    if (path.dirname(file) !== dir || !(await isFile(file))) return false;
  }
  return true;
}

async function loadListedResources(k: Record<string, unknown>, dir: string): Promise<Loaded[]> {
  const resources = (k.resources ?? []) as string[];
  return (await Promise.all(resources.map((r) => loadFile(path.resolve(dir, r))))).flat();
}

/** File names a kustomization mentions anywhere (resources, patches, generators' `key=file`, ...). */
function referencedNames(k: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (v: unknown) => {
    if (typeof v === 'string') {
      for (const s of [v, v.slice(v.indexOf('=') + 1)]) names.add(path.normalize(s));
    } else if (Array.isArray(v)) {
      v.forEach(visit);
    } else if (isRecord(v)) {
      Object.values(v).forEach(visit);
    }
  };
  visit(k);
  return names;
}

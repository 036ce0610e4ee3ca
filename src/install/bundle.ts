import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { LineCounter, parseAllDocuments, type Tags } from 'yaml';
import { DEFAULT_NAMESPACE } from '../config/fleet-config.js';
import { UserError } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';

/** The bundle shipped with fleetdeck, laid out like Nova's `install/` directory. */
export const DEFAULT_BUNDLE_DIR = path.join(PACKAGE_ROOT, 'src', 'install', 'bundle');

/** The node label the HA control plane spreads its pods over, as Nova's cp-ha overlay. */
export const DEFAULT_TOPOLOGY_KEY = 'topology.kubernetes.io/zone';

/** Replicas of each control plane component (and etcd members) with HA. */
export const DEFAULT_HA_REPLICAS = 3;

/** The file names kustomize recognises as a kustomization. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'] as const;

/** Object metadata as read from a manifest. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** One Kubernetes object of a manifest, as parsed (plain JSON-like data). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

/** The install bundle: what the installer creates, by where it goes. */
export interface Bundle {
  /** The API server's LoadBalancer Service (`apiserver`), created on its own before anything else. */
  service: KubeObject;
  /** The rest of base/control-plane for the hosting cluster: etcd, API server, controller manager, scheduler. */
  controlPlane: KubeObject[];
  /** The CustomResourceDefinitions of base/control-plane, installed in the Nova control plane itself. */
  crds: KubeObject[];
  /** base/agent, for each workload cluster. */
  agent: KubeObject[];
  /** The bundle's directory (absolute). */
  source: string;
}

/** Options of {@link loadBundle}. */
export interface LoadBundleOptions {
  /** The kubectl to render kustomization directories with: a name looked up on PATH, or a path. Default `kubectl`. */
  kubectl?: string;
}

/** Options of {@link withHA}. */
export interface HAOptions {
  /** Replicas of each component and etcd members. Default 3. */
  replicas?: number;
  /** The node label pods of one component must not share. Default `topology.kubernetes.io/zone`. */
  topologyKey?: string;
}

/** One permission to check with a SelfSubjectAccessReview. */
export interface Permission {
  /** API group, `''` for the core group. */
  group: string;
  /** Resource (plural, lower case), e.g. `deployments`. */
  resource: string;
  verb: string;
  /** Set for namespaced resources: the install namespace. Absent: cluster-wide. */
  namespace?: string;
  /** Why the install needs it, for a hint when it is missing. */
  reason: string;
}

/** What the install needs in each kind of cluster. */
export interface RequiredPermissions {
  /** In the hosting cluster (the control plane's namespace, Service, Secrets, workloads). */
  hosting: Permission[];
  /** In each workload cluster (namespace, init kubeconfig Secret, the agent and its RBAC). */
  workload: Permission[];
}

// ---------------------------------------------------------------------------------------------
// Loading

/** An object and where it came from (for error messages). */
interface Loaded {
  obj: KubeObject;
  source: string;
}

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
 * `dir` may also be a directory holding such an `install/` directory.
 *
 * @throws UserError when the layout is wrong, a file is not valid YAML (naming file and line),
 *   a document is not a Kubernetes object, the apiserver Service is missing, an object is
 *   defined twice, or a kustomization needs kubectl and kubectl is not on PATH or fails.
 */
export async function loadBundle(dir: string = DEFAULT_BUNDLE_DIR, opts: LoadBundleOptions = {}): Promise<Bundle> {
  const root = await bundleRoot(path.resolve(dir));
  const cpDir = path.join(root, 'base', 'control-plane');
  const agentDir = path.join(root, 'base', 'agent');
  const cp = unique(await loadDirectory(cpDir, opts), cpDir);
  const agent = unique(await loadDirectory(agentDir, opts), agentDir);

  const services = cp.filter(({ obj }) => obj.kind === 'Service' && groupOf(obj) === '' && obj.metadata.name === 'apiserver');
  const service = services[0];
  if (!service) {
    throw new UserError(`${cpDir} has no Service named apiserver (the API server's LoadBalancer Service)`);
  }
  const type = (service.obj.spec as { type?: unknown } | undefined)?.type;
  if (type !== 'LoadBalancer') {
    throw new UserError(`${service.source}: Service apiserver must be of type LoadBalancer (it is ${type === undefined ? 'ClusterIP' : String(type)})`);
  }
  const isCrd = (o: KubeObject) => o.kind === 'CustomResourceDefinition' && groupOf(o) === 'apiextensions.k8s.io';
  return {
    service: service.obj,
    controlPlane: cp.filter((l) => l !== service && !isCrd(l.obj)).map((l) => l.obj),
    crds: cp.filter((l) => isCrd(l.obj)).map((l) => l.obj),
    agent: agent.map((l) => l.obj),
    source: root,
  };
}

/** The directory holding base/control-plane and base/agent: `dir` itself or its `install/`. */
async function bundleRoot(dir: string): Promise<string> {
  if (!(await isDirectory(dir))) {
    throw new UserError(`${dir} is not a directory (expected a bundle laid out like Nova's install/: base/control-plane and base/agent)`);
  }
  const has = async (d: string) => (await isDirectory(path.join(d, 'base', 'control-plane'))) || (await isDirectory(path.join(d, 'base', 'agent')));
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

/** The objects of one directory: plain, or a kustomization plus the manifests beside it it does not use. */
async function loadDirectory(dir: string, opts: LoadBundleOptions): Promise<Loaded[]> {
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
  const rendered = (await resourcesOnly(k, dir)) ? await loadListedResources(k, dir) : await renderKustomization(dir, opts.kubectl ?? 'kubectl');
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

/** `kubectl kustomize DIR`, parsed. */
async function renderKustomization(dir: string, kubectl: string): Promise<Loaded[]> {
  const source = `kubectl kustomize ${dir}`;
  const out = await new Promise<string>((resolve, reject) => {
    execFile(kubectl, ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(
          new UserError(`${dir} is a kustomization directory; rendering it needs kubectl on PATH (install kubectl, or pass a directory of plain manifests)`),
        );
      }
      reject(new UserError(`${source} failed: ${lastErrorLine(stderr) ?? err.message}`));
    });
  });
  return parseYaml(out, source).map(({ obj, line }) => ({ obj: asObject(obj, source, line), source })).flatMap(expandList);
}

function lastErrorLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  let error = lines.find((l) => /^error:/i.test(l)) ?? lines.at(-1);
  if (!error) return undefined;
  // Newer kubectl logs it: E1122 05:13:05.601083 2540 run.go:72] "command failed" err="..."
  error = error.replace(/^[IWEF]\d{4} [\d:.]+\s+\d+ [^\]]+\] /, '');
  const quoted = /^"command failed" err="(.*)"$/.exec(error);
  if (quoted) error = quoted[1]!.replace(/\\"/g, '"');
  error = error.replace(/^error: /i, '');
  return error.length > 400 ? `${error.slice(0, 400)}…` : error;
}

async function loadFile(file: string): Promise<Loaded[]> {
  const text = await fs.readFile(file, 'utf8');
  return parseYaml(text, file)
    .map(({ obj, line }) => ({ obj: asObject(obj, file, line), source: file }))
    .flatMap(expandList);
}

/**
 * YAML as kubectl reads it: YAML 1.1 (`0400` is octal, `yes` is true), but timestamps and
 * sexagesimal numbers stay strings. Empty documents are skipped.
 */
function parseYaml(text: string, source: string): { obj: unknown; line: number }[] {
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

function asObject(v: unknown, source: string, line: number): KubeObject {
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
function expandList(l: Loaded): Loaded[] {
  if (!isList(l.obj)) return [l];
  return (l.obj.items as unknown[]).map((item) => ({ obj: asObject(item, l.source, 0), source: l.source }));
}

/** Fails when two objects have the same kind, namespace and name. */
function unique(objs: Loaded[], dir: string): Loaded[] {
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

// ---------------------------------------------------------------------------------------------
// Transforms (pure: they return new objects and never change their arguments)

/** Kinds without a namespace, by `group/kind`. Custom kinds are looked up in the CRDs given alongside. */
const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'policy/PodSecurityPolicy',
  'certificates.k8s.io/CertificateSigningRequest',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The objects for namespace `ns`: `metadata.namespace` set on every namespaced object (not on
 * cluster-scoped kinds such as ClusterRole or CustomResourceDefinition, nor on custom kinds
 * whose CRD in `objs` says `scope: Cluster`), and the namespace of every ServiceAccount
 * subject of a (Cluster)RoleBinding that names one of the bundle's ServiceAccounts or has none.
 *
 * @throws UserError when `ns` is not a valid namespace name.
 */
export function forNamespace(objs: readonly KubeObject[], ns: string): KubeObject[] {
  if (!DNS_LABEL.test(ns) || ns.length > 63) {
    throw new UserError(`invalid namespace "${ns}": lower case letters, digits and '-', at most 63 characters`);
  }
  const clusterScoped = new Set(CLUSTER_SCOPED);
  for (const o of objs) {
    const spec = o.spec as { group?: string; scope?: string; names?: { kind?: string } } | undefined;
    if (o.kind === 'CustomResourceDefinition' && spec?.scope === 'Cluster' && spec.names?.kind) {
      clusterScoped.add(`${spec.group ?? ''}/${spec.names.kind}`);
    }
  }
  const accounts = new Set(objs.filter((o) => o.kind === 'ServiceAccount' && groupOf(o) === '').map((o) => o.metadata.name));
  return objs.map((o) => {
    const c = structuredClone(o);
    if (clusterScoped.has(`${groupOf(c)}/${c.kind}`)) {
      delete c.metadata.namespace;
    } else {
      c.metadata.namespace = ns;
    }
    if ((c.kind === 'ClusterRoleBinding' || c.kind === 'RoleBinding') && groupOf(c) === 'rbac.authorization.k8s.io' && Array.isArray(c.subjects)) {
      for (const s of c.subjects as { kind?: string; name?: string; namespace?: string }[]) {
        if (s.kind === 'ServiceAccount' && (s.namespace === undefined || accounts.has(s.name ?? ''))) s.namespace = ns;
      }
    }
    return c;
  });
}

/** The rolling update of an HA Deployment: one pod at a time, no surge (one pod per topology domain). */
const HA_STRATEGY = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };

/**
 * The control plane, highly available (as Nova's overlays/cp-ha): every Deployment and
 * StatefulSet gets `replicas` (default 3) and a required pod anti-affinity on `topologyKey`
 * (default `topology.kubernetes.io/zone`) against its own pods (its selector's labels);
 * Deployments roll one pod at a time without surge; etcd (a StatefulSet whose container has
 * `--initial-cluster=`) lists `replicas` members, `<name>-0` … `<name>-<n-1>`, each with the
 * peer URL of the first member's pattern.
 *
 * @throws RangeError when `replicas` is not a positive integer or `topologyKey` is empty.
 */
export function withHA(objs: readonly KubeObject[], opts: HAOptions = {}): KubeObject[] {
  const replicas = opts.replicas ?? DEFAULT_HA_REPLICAS;
  const topologyKey = opts.topologyKey ?? DEFAULT_TOPOLOGY_KEY;
  if (!Number.isInteger(replicas) || replicas < 1) throw new RangeError(`replicas must be a positive integer, not ${replicas}`);
  if (topologyKey === '') throw new RangeError('topologyKey must not be empty');
  return objs.map((o) => {
    const c = structuredClone(o);
    const w = workload(c);
    if (!w) return c;
    w.spec.replicas = replicas;
    const labels = ownLabels(w);
    const pod = podSpec(w);
    const affinity = (pod.affinity ??= {});
    const anti = (affinity.podAntiAffinity ??= {});
    const terms = (anti.requiredDuringSchedulingIgnoredDuringExecution ?? []).filter((t) => !sameLabels(t.labelSelector?.matchLabels, labels));
    anti.requiredDuringSchedulingIgnoredDuringExecution = [...terms, { labelSelector: { matchLabels: { ...labels } }, topologyKey }];
    if (c.kind === 'Deployment') w.spec.strategy = structuredClone(HA_STRATEGY);
    if (c.kind === 'StatefulSet') setEtcdMembers(w, replicas);
    return c;
  });
}

/**
 * The control plane without HA: every Deployment and StatefulSet with one replica and without
 * the anti-affinity {@link withHA} adds (other affinity terms stay), Deployments' rolling
 * update back to the default when it is withHA's, and etcd with its first member only.
 * `withoutHA(withHA(x))` equals `x` for the default bundle.
 */
export function withoutHA(objs: readonly KubeObject[]): KubeObject[] {
  return objs.map((o) => {
    const c = structuredClone(o);
    const w = workload(c);
    if (!w) return c;
    w.spec.replicas = 1;
    const labels = ownLabels(w);
    const pod = podSpec(w);
    const anti = pod.affinity?.podAntiAffinity;
    if (anti?.requiredDuringSchedulingIgnoredDuringExecution) {
      const terms = anti.requiredDuringSchedulingIgnoredDuringExecution.filter((t) => !sameLabels(t.labelSelector?.matchLabels, labels));
      if (terms.length > 0) anti.requiredDuringSchedulingIgnoredDuringExecution = terms;
      else delete anti.requiredDuringSchedulingIgnoredDuringExecution;
    }
    if (anti && Object.keys(anti).length === 0) delete pod.affinity!.podAntiAffinity;
    if (pod.affinity && Object.keys(pod.affinity).length === 0) delete pod.affinity;
    if (c.kind === 'Deployment' && isDeepStrictEqual(w.spec.strategy, HA_STRATEGY)) delete w.spec.strategy;
    if (c.kind === 'StatefulSet') setEtcdMembers(w, 1);
    return c;
  });
}

/**
 * The agent for the workload cluster named `name`: `--cluster-name=<name>` replaces the
 * argument wherever a container has one; when none has, it is added first to the arguments
 * of the containers named `nova-agent`.
 *
 * @throws UserError when `name` is not a valid Cluster name (a DNS subdomain), or no container
 *   takes a cluster name.
 */
export function withClusterName(agentObjs: readonly KubeObject[], name: string): KubeObject[] {
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
    throw new UserError(`invalid cluster name "${name}": lower case letters, digits, '-' and '.', starting and ending with a letter or digit`);
  }
  const out = agentObjs.map((o) => structuredClone(o));
  const flag = `--cluster-name=${name}`;
  const isFlag = (a: unknown) => typeof a === 'string' && (a === '--cluster-name' || a.startsWith('--cluster-name='));
  const containers = out.flatMap((o) => {
    const w = workload(o, true);
    return w ? (podSpec(w).containers ?? []) : [];
  });
  const having = containers.filter((c) => [...(c.command ?? []), ...(c.args ?? [])].some(isFlag));
  if (having.length > 0) {
    for (const c of having) {
      for (const key of ['command', 'args'] as const) {
        const list = c[key];
        if (!list) continue;
        const next: string[] = [];
        for (let i = 0; i < list.length; i++) {
          const a = list[i]!;
          if (a === '--cluster-name') {
            next.push(flag);
            i++; // its value
          } else {
            next.push(isFlag(a) ? flag : a);
          }
        }
        c[key] = next;
      }
    }
    return out;
  }
  const agents = containers.filter((c) => c.name === 'nova-agent');
  if (agents.length === 0) throw new UserError('the agent manifests have no container named nova-agent to pass --cluster-name to');
  for (const c of agents) c.args = [flag, ...(c.args ?? [])];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Permissions

const ALL_VERBS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'] as const;
const READ_VERBS = ['get', 'list', 'watch'] as const;

/** Plurals of the kinds a bundle is likely to hold, by `group/kind`. */
const PLURALS: Record<string, string> = {
  '/Endpoints': 'endpoints',
  'networking.k8s.io/Ingress': 'ingresses',
  'networking.k8s.io/IngressClass': 'ingressclasses',
  'networking.k8s.io/NetworkPolicy': 'networkpolicies',
  'scheduling.k8s.io/PriorityClass': 'priorityclasses',
  'storage.k8s.io/StorageClass': 'storageclasses',
  'policy/PodSecurityPolicy': 'podsecuritypolicies',
  'policy/PodDisruptionBudget': 'poddisruptionbudgets',
};

/** The resource name of a kind: known plurals, the bundle's CRDs, else English rules as Kubernetes' own. */
function pluralOf(group: string, kind: string, crdPlurals: Map<string, string>): string {
  const known = PLURALS[`${group}/${kind}`] ?? crdPlurals.get(`${group}/${kind}`);
  if (known) return known;
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/**
 * Every permission the install needs, for the prerequisite checks (one
 * SelfSubjectAccessReview each), namespaced ones in `namespace` (default `elotl`):
 *
 * - hosting cluster: all verbs (create, get, list, watch, update, patch, delete) on namespaces,
 *   Secrets (the certificates) and every kind of the apiserver Service and the control plane;
 *   get/list/watch on the pods it waits for and their events;
 * - workload clusters: all verbs on namespaces, Secrets (the init kubeconfig) and every kind of
 *   the agent (ServiceAccount, Deployment, ClusterRole, ClusterRoleBinding), plus each
 *   permission the agent's ClusterRoles grant, cluster-wide: Kubernetes lets only a holder of a
 *   permission grant it (short of the `escalate` verb).
 *
 * The CRDs are not included: they are installed in the new control plane as its admin.
 */
export function requiredPermissions(bundle: Bundle, namespace: string = DEFAULT_NAMESPACE): RequiredPermissions {
  const crdPlurals = new Map<string, string>();
  const clusterScoped = new Set(CLUSTER_SCOPED);
  for (const crd of bundle.crds) {
    const spec = crd.spec as { group?: string; scope?: string; names?: { kind?: string; plural?: string } } | undefined;
    if (spec?.names?.kind && spec.names.plural) crdPlurals.set(`${spec.group ?? ''}/${spec.names.kind}`, spec.names.plural);
    if (spec?.scope === 'Cluster' && spec.names?.kind) clusterScoped.add(`${spec.group ?? ''}/${spec.names.kind}`);
  }

  const build = () => {
    const list: Permission[] = [];
    const seen = new Set<string>();
    const add = (group: string, resource: string, verbs: readonly string[], namespaced: boolean, reason: string) => {
      for (const verb of verbs) {
        const p: Permission = { group, resource, verb, reason };
        if (namespaced) p.namespace = namespace;
        const key = `${group}/${resource}/${verb}/${p.namespace ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        list.push(p);
      }
    };
    const addKinds = (objs: readonly KubeObject[], what: string) => {
      for (const o of objs) {
        const group = groupOf(o);
        add(group, pluralOf(group, o.kind, crdPlurals), ALL_VERBS, !clusterScoped.has(`${group}/${o.kind}`), `to manage ${o.kind} ${o.metadata.name} (${what})`);
      }
    };
    return { list, add, addKinds };
  };

  const hosting = build();
  hosting.add('', 'namespaces', ALL_VERBS, false, `to create and remove namespace ${namespace}`);
  hosting.add('', 'secrets', ALL_VERBS, true, 'to store the control plane certificates');
  hosting.addKinds([bundle.service], 'the API server Service');
  hosting.addKinds(bundle.controlPlane, 'the control plane');
  hosting.add('', 'pods', READ_VERBS, true, 'to wait for the control plane pods');
  hosting.add('', 'events', READ_VERBS, true, 'to show why a control plane pod is not ready');

  const workload = build();
  workload.add('', 'namespaces', ALL_VERBS, false, `to create and remove namespace ${namespace}`);
  workload.add('', 'secrets', ALL_VERBS, true, 'to copy the init kubeconfig for the agent');
  workload.addKinds(bundle.agent, 'the agent');
  for (const role of bundle.agent.filter((o) => o.kind === 'ClusterRole' && groupOf(o) === 'rbac.authorization.k8s.io')) {
    for (const rule of (role.rules ?? []) as { apiGroups?: string[]; resources?: string[]; verbs?: string[]; resourceNames?: string[] }[]) {
      for (const group of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          const verbs = (rule.verbs ?? []).filter((v) => v !== '*');
          if (group === '*' || resource === '*') continue;
          workload.add(group, resource, verbs, false, `granted to the agent by ClusterRole ${role.metadata.name} (only a holder may grant it)`);
        }
      }
    }
  }
  return { hosting: hosting.list, workload: workload.list };
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The API group of an object (`''` for the core group). */
function groupOf(o: KubeObject): string {
  const slash = o.apiVersion.indexOf('/');
  return slash < 0 ? '' : o.apiVersion.slice(0, slash);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface Container {
  name?: string;
  command?: string[];
  args?: string[];
  [key: string]: unknown;
}

interface AffinityTerm {
  labelSelector?: { matchLabels?: Record<string, string> };
  topologyKey?: string;
}

interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[]; [key: string]: unknown }; [key: string]: unknown };
  [key: string]: unknown;
}

interface Workload {
  kind: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    serviceName?: string;
    strategy?: unknown;
    selector?: { matchLabels?: Record<string, string> };
    template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
    [key: string]: unknown;
  };
}

/** The object as a Deployment or StatefulSet (with `any`: also DaemonSet and Job), or undefined. */
function workload(o: KubeObject, any = false): Workload | undefined {
  const kinds = any ? ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'] : ['Deployment', 'StatefulSet'];
  const group = groupOf(o);
  if (!kinds.includes(o.kind) || (group !== 'apps' && group !== 'batch') || !isRecord(o.spec)) return undefined;
  return o as unknown as Workload;
}

function podSpec(w: Workload): PodSpec {
  const template = (w.spec.template ??= {});
  return (template.spec ??= {});
}

/** The labels that select a workload's own pods. */
function ownLabels(w: Workload): Record<string, string> {
  return w.spec.selector?.matchLabels ?? w.spec.template?.metadata?.labels ?? {};
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  if (!a) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Rewrites `--initial-cluster=` (in command or args) to list `n` members of a StatefulSet. */
function setEtcdMembers(w: Workload, n: number): void {
  const sts = w.metadata.name;
  for (const c of podSpec(w).containers ?? []) {
    for (const key of ['command', 'args'] as const) {
      const list = c[key];
      if (!list) continue;
      c[key] = list.map((a) => {
        if (!a.startsWith('--initial-cluster=')) return a;
        const first = a.slice('--initial-cluster='.length).split(',')[0] ?? '';
        const eq = first.indexOf('=');
        if (eq <= 0) return a;
        const name = first.slice(0, eq);
        const pattern = new RegExp(`(?<![A-Za-z0-9-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-])`, 'g');
        const members = Array.from({ length: n }, (_, i) => first.replace(pattern, `${sts}-${i}`));
        return `--initial-cluster=${members.join(',')}`;
      });
    }
  }
}

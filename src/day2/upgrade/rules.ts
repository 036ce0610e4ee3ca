/**
 * The upgrade's plan as pure functions of objects: which component an object belongs to, which
 * images change (old → new), which objects the new bundle no longer has, the version skew rules
 * between the control plane's components, and the order of the workload clusters.
 */
import { type Manifest, objectRef } from '../../kube/api/apply.js';
import { type KubeMinor, parseKubeVersion } from '../../kube/api/discovery.js';
import { podSpecOf } from '../../install/bundle-images.js';
import type { KubeObject } from '../../install/bundle-objects.js';
import { COMPONENTS } from '../../install/plan.js';

export type ComponentId = (typeof COMPONENTS)[number]['id'];

/** The control-plane component a hosting object is the workload of (etcd's StatefulSet, the apiserver Deployment, …). */
export function componentOf(o: Pick<Manifest, 'kind' | 'metadata'>): ComponentId | undefined {
  return COMPONENTS.find((c) => c.kind === o.kind && c.name === o.metadata.name)?.id;
}

/** One container's image before and after (`from` absent: a new container; `to` absent: one removed). */
export interface ImageChange {
  context: string;
  /** `Deployment ns/name`. */
  workload: string;
  container: string;
  from?: string;
  to?: string;
}

function images(o: Manifest | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const pod = o ? podSpecOf(o as unknown as KubeObject) : undefined;
  for (const key of ['initContainers', 'containers'] as const) {
    const list = pod?.[key];
    if (!Array.isArray(list)) continue;
    for (const c of list as { name?: unknown; image?: unknown }[]) {
      if (typeof c.name === 'string' && typeof c.image === 'string') out.set(c.name, c.image);
    }
  }
  return out;
}

/** The first container's image of a workload (undefined for other objects). */
export function mainImage(o: Manifest | undefined): string | undefined {
  return images(o).values().next().value;
}

/** The images that change from the objects in place (`before`, matched by kind and name) to `after`. */
export function imageChanges(context: string, before: readonly Manifest[], after: readonly Manifest[]): ImageChange[] {
  const out: ImageChange[] = [];
  for (const next of after) {
    const ref = objectRef(next);
    const prev = before.find((b) => objectRef(b) === ref);
    const old = images(prev);
    const now = images(next);
    for (const [container, to] of now) {
      const from = old.get(container);
      if (from !== to) out.push({ context, workload: ref, container, ...(from ? { from } : {}), to });
    }
    for (const [container, from] of old) if (!now.has(container)) out.push({ context, workload: ref, container, from });
  }
  return out;
}

/** The objects of `prev` that `next` does not have (by kind, namespace and name). */
export function removedObjects(prev: readonly Manifest[], next: readonly Manifest[]): Manifest[] {
  const kept = new Set(next.map((o) => `${o.apiVersion.split('/')[0]} ${objectRef(o)}`));
  return prev.filter((o) => !kept.has(`${o.apiVersion.split('/')[0]} ${objectRef(o)}`));
}

/** The Kubernetes version an image's tag names (`registry.k8s.io/kube-apiserver:v1.28.4` → 1.28), etcd's too (`3.5.9-0` → 3.5). */
export function tagVersion(image: string | undefined): KubeMinor | undefined {
  if (!image) return undefined;
  const bare = image.split('@')[0] ?? '';
  const colon = bare.lastIndexOf(':');
  if (colon < 0 || colon < bare.lastIndexOf('/')) return undefined;
  return parseKubeVersion(bare.slice(colon + 1));
}

/** One version skew rule, checked. `fail` blocks the upgrade; `warn` is said on the plan. */
export interface SkewCheck {
  rule: string;
  state: 'ok' | 'warn' | 'fail';
  detail: string;
}

const fmt = (v: KubeMinor | undefined) => (v ? `${v.major}.${v.minor}` : 'unknown');
const minorDiff = (a: KubeMinor, b: KubeMinor) => (a.major - b.major) * 100 + (a.minor - b.minor);

/** Each component's image before and after, by component. */
export type ComponentImages = Partial<Record<ComponentId, { from?: string; to?: string }>>;

/**
 * Kubernetes' version skew policy for the control plane's own components, from their image tags:
 * kube-apiserver moves at most one minor version at a time; kube-controller-manager and the
 * scheduler are not newer than kube-apiserver and at most one minor older; etcd never goes back a
 * minor version (etcd does not support downgrades). A tag that names no version is a warning.
 */
export function skewChecks(c: ComponentImages): SkewCheck[] {
  const out: SkewCheck[] = [];
  const api = { from: tagVersion(c.apiserver?.from), to: tagVersion(c.apiserver?.to ?? c.apiserver?.from) };
  if (c.apiserver?.to && !api.to) {
    out.push({ rule: 'kube-apiserver version', state: 'warn', detail: `${c.apiserver.to}: its tag names no version, skew not checked` });
  } else if (api.from && api.to) {
    const d = minorDiff(api.to, api.from);
    out.push(
      Math.abs(d) > 1
        ? {
            rule: 'kube-apiserver one minor at a time',
            state: 'fail',
            detail: `${fmt(api.from)} → ${fmt(api.to)} skips a minor version: upgrade through each minor version`,
          }
        : {
            rule: 'kube-apiserver one minor at a time',
            state: d < 0 ? 'warn' : 'ok',
            detail: `${fmt(api.from)} → ${fmt(api.to)}${d < 0 ? ' (a downgrade)' : ''}`,
          },
    );
  }
  for (const id of ['controller-manager', 'scheduler'] as const) {
    const image = c[id]?.to ?? c[id]?.from;
    const v = tagVersion(image);
    const name = id === 'scheduler' ? 'scheduler' : 'kube-controller-manager';
    if (!image) continue;
    if (!v || !api.to) {
      out.push({ rule: `${name} within kube-apiserver's version`, state: 'warn', detail: `${image}: version not known, skew not checked` });
      continue;
    }
    const d = minorDiff(v, api.to);
    const state = d > 0 || d < -1 ? 'fail' : 'ok';
    const why = d > 0 ? ' (newer than kube-apiserver)' : d < -1 ? ' (more than one minor older than kube-apiserver)' : '';
    out.push({ rule: `${name} within kube-apiserver's version`, state, detail: `${fmt(v)} with kube-apiserver ${fmt(api.to)}${why}` });
  }
  const etcd = { from: tagVersion(c.etcd?.from), to: tagVersion(c.etcd?.to) };
  if (etcd.from && etcd.to) {
    const back = minorDiff(etcd.to, etcd.from) < 0;
    out.push({
      rule: 'etcd never downgraded',
      state: back ? 'fail' : 'ok',
      detail: `${fmt(etcd.from)} → ${fmt(etcd.to)}${back ? ': etcd does not support going back a minor version' : ''}`,
    });
  }
  return out;
}

/**
 * The workload clusters in the order their agents are upgraded: the canary first (the first
 * cluster without one), then the others as the fleet lists them.
 */
export function agentOrder(clusters: readonly string[], canary?: string): string[] {
  const first = canary ?? clusters[0];
  return first === undefined ? [] : [first, ...clusters.filter((c) => c !== first)];
}

/** The Nova release line an agent image names (`elotl/nova-agent:v0.7.0` → `v0.7`). */
export function novaLine(image: string | undefined): string | undefined {
  const v = tagVersion(image);
  return v ? `v${v.major}.${v.minor}` : undefined;
}

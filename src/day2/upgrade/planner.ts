/**
 * `planUpgrade`: what an upgrade (or a rollback) would do, read from the clusters without
 * changing anything: every object created, changed, unchanged or removed (server-side dry runs),
 * the images old → new, the support matrix against every workload cluster's Kubernetes version
 * and the control plane's version skew.
 */
import { Applier, type Manifest, objectRef } from '../../kube/api/apply.js';
import type { ApiObject } from '../../kube/api/api-resources.js';
import { serverVersion } from '../../kube/api/discovery.js';
import { describeError } from '../../kube/transport/client.js';
import { cleanObject } from '../../backup/clean.js';
import { loadBundle } from '../../install/bundle.js';
import { type BundleRecord, readRecord } from '../../install/bundle-record.js';
import { type RenderedBundle, renderBundle, sameObjects } from '../../install/bundle-render.js';
import { COMPONENTS, DEFAULT_TOPOLOGY_KEY } from '../../install/plan.js';
import { describeRange, isSupported, supportEntry } from '../../install/support-matrix.js';
import { UserError } from '../../errors.js';
import { agentOrder, type ComponentImages, componentOf, imageChanges, mainImage, novaLine, removedObjects, skewChecks } from './rules.js';
import type { PlannedObject, PreparedUpgrade, SupportRow, UpgradePlan, UpgradeTargets } from './targets.js';

export interface PlanOptions {
  /** The new bundle's directory (default: the one shipped with fleetdeck). Ignored for a rollback. */
  bundleDir?: string;
  /** Go back to the bundle recorded as previous. */
  rollback?: boolean;
  /** The cluster (name) whose agent goes first. */
  canary?: string;
  signal?: AbortSignal;
}

const ACTION = { create: 'create', update: 'update', unchanged: 'unchanged' } as const;

/** An object as it is in a cluster, without what the server keeps (for the record of a fleet installed before bundles were recorded). */
function asApplied(o: Manifest): Manifest {
  return cleanObject(JSON.parse(JSON.stringify(o)) as ApiObject) as Manifest;
}

/** Whether the control plane in place runs more than one replica (a fleet installed before bundles were recorded). */
async function liveHA(hosting: Applier, namespace: string): Promise<boolean> {
  const d = await hosting.read<Manifest & { spec?: { replicas?: number } }>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'apiserver', namespace },
  });
  if (!d)
    throw new UserError(
      `no control plane in namespace ${namespace} of the hosting cluster (Deployment apiserver not found): install it first`,
    );
  return (d.spec?.replicas ?? 1) > 1;
}

/** The rendering the upgrade goes to: the new bundle for this fleet, or the recorded previous one. */
async function target(t: UpgradeTargets, record: BundleRecord, hosting: Applier, o: PlanOptions): Promise<RenderedBundle> {
  if (o.rollback) {
    if (!record.previous)
      throw new UserError(
        `no previous bundle is recorded in ${t.hosting.context} (ConfigMap ${t.namespace}/fleetdeck-bundle): nothing to roll back to`,
      );
    return record.previous;
  }
  const bundle = await loadBundle(o.bundleDir);
  const ha = record.current?.ha ?? (await liveHA(hosting, t.namespace));
  return renderBundle(bundle, {
    namespace: t.namespace,
    ha,
    topologyKey: record.current?.topologyKey ?? DEFAULT_TOPOLOGY_KEY,
    clusters: t.workloads.map((w) => w.clusterName),
  });
}

async function readAll(a: Applier, objs: readonly Manifest[]): Promise<Manifest[]> {
  const out: Manifest[] = [];
  for (const o of objs) {
    const live = await a.read(o);
    if (live) out.push(asApplied(live));
  }
  return out;
}

async function actions(a: Applier, context: string, objs: readonly Manifest[], extra: (o: Manifest) => Partial<PlannedObject>) {
  const out: PlannedObject[] = [];
  for (const o of objs) out.push({ context, ref: objectRef(o), action: ACTION[await a.plan(o)], ...extra(o) });
  return out;
}

async function support(t: UpgradeTargets, next: RenderedBundle): Promise<UpgradePlan['support']> {
  const agent = Object.values(next.agents)[0]?.find((o) => o.kind === 'Deployment');
  const image = mainImage(agent);
  const nova = novaLine(image) ?? null;
  const entry = nova ? supportEntry(nova) : undefined;
  const clusters: SupportRow[] = [];
  for (const w of t.workloads) {
    const base = { context: w.context, clusterName: w.clusterName };
    let version: string;
    try {
      version = await serverVersion(w.kc, 10_000);
    } catch (err) {
      clusters.push({ ...base, state: 'warn', detail: `version not known: ${describeError(err)}` });
      continue;
    }
    if (!entry)
      clusters.push({ ...base, version, state: 'warn', detail: `${version}: Nova ${nova ?? '(unknown)'} is not in the support matrix` });
    else if (isSupported(version, entry)) clusters.push({ ...base, version, state: 'ok', detail: `${version} supported by Nova ${nova}` });
    else clusters.push({ ...base, version, state: 'warn', detail: `${version} is outside Nova ${nova}'s ${describeRange(entry)}` });
  }
  return { nova, range: entry ? describeRange(entry) : null, clusters };
}

/** Each control plane component's main image: in place (`from`) and in the rendering the upgrade goes to (`to`). */
function componentImages(live: readonly Manifest[], next: readonly Manifest[]): ComponentImages {
  const byComponent: ComponentImages = {};
  for (const c of COMPONENTS) {
    const from = mainImage(live.find((m) => componentOf(m) === c.id));
    const to = mainImage(next.find((m) => componentOf(m) === c.id));
    byComponent[c.id] = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  }
  return byComponent;
}

/**
 * Plans an upgrade to the bundle in `bundleDir` (or, with `rollback`, back to the bundle recorded
 * before the one in place). Reads only: the object actions come from server-side dry runs.
 *
 * @throws UserError when there is no control plane, nothing to roll back to, the bundle does not
 *   load, or the canary is not a cluster of the fleet.
 */
export async function planUpgrade(t: UpgradeTargets, o: PlanOptions = {}): Promise<PreparedUpgrade> {
  const clusters = t.workloads.map((w) => w.clusterName);
  if (o.canary !== undefined && !clusters.includes(o.canary))
    throw new UserError(`--canary ${o.canary} is not a workload cluster of the fleet (${clusters.join(', ') || 'none'})`, 2);
  const hosting = new Applier(t.hosting.kc);
  const cp = new Applier(t.controlPlane.kc);
  const record = await readRecord(hosting, t.namespace);
  const next = await target(t, record, hosting, o);
  o.signal?.throwIfAborted();
  // A re-run after an interruption finds `next` already recorded: it replaces the one before.
  const replaced = !o.rollback && record.current && sameObjects(record.current, next) ? record.previous : record.current;

  const hostingIn = next.controlPlane;
  const liveCp = await readAll(hosting, hostingIn);
  const prevCp = replaced?.controlPlane ?? [];
  const objects: PlannedObject[] = [
    ...(await actions(hosting, t.hosting.context, hostingIn, (m) => {
      const c = componentOf(m);
      return c ? { component: c } : {};
    })),
    ...(await readAll(hosting, removedObjects(prevCp, hostingIn))).map((m) => ({
      context: t.hosting.context,
      ref: objectRef(m),
      action: 'remove' as const,
    })),
    ...(await actions(cp, t.controlPlane.context, next.crds, () => ({}))),
  ];
  const images = imageChanges(t.hosting.context, liveCp, hostingIn);
  const liveAgents: Record<string, Manifest[]> = {};
  for (const w of t.workloads) {
    o.signal?.throwIfAborted();
    const a = new Applier(w.kc);
    const objs = next.agents[w.clusterName] ?? [];
    liveAgents[w.clusterName] = await readAll(a, objs);
    objects.push(...(await actions(a, w.context, objs, () => ({ cluster: w.clusterName }))));
    const gone = await readAll(a, removedObjects(replaced?.agents[w.clusterName] ?? [], objs));
    objects.push(...gone.map((m) => ({ context: w.context, ref: objectRef(m), action: 'remove' as const, cluster: w.clusterName })));
    images.push(...imageChanges(w.context, liveAgents[w.clusterName] ?? [], objs));
  }

  const skew = skewChecks(componentImages(liveCp, hostingIn));
  const changes = (f: (p: PlannedObject) => boolean) => objects.filter((p) => f(p) && p.action !== 'unchanged').length;
  const canary = o.canary ?? clusters[0];
  const plan: UpgradePlan = {
    rollback: o.rollback === true,
    from: record.current ? { source: record.current.source, recordedAt: record.current.recordedAt } : null,
    to: { source: next.source, ...(o.rollback && record.previous ? { recordedAt: record.previous.recordedAt } : {}) },
    namespace: t.namespace,
    objects,
    images,
    support: await support(t, next),
    skew,
    components: COMPONENTS.map((c) => ({ id: c.id, label: c.label, changes: changes((p) => p.component === c.id) })),
    agents: agentOrder(clusters, o.canary).map((cluster) => ({
      cluster,
      context: t.workloads.find((w) => w.clusterName === cluster)?.context ?? cluster,
      canary: cluster === canary,
      changes: changes((p) => p.cluster === cluster),
    })),
    blocking: skew.filter((s) => s.state === 'fail').map((s) => `${s.rule}: ${s.detail}`),
  };
  const inPlace: RenderedBundle | undefined = record.current
    ? undefined
    : {
        source: '(as installed)',
        ha: next.ha,
        topologyKey: next.topologyKey,
        controlPlane: liveCp,
        crds: await readAll(cp, next.crds),
        agents: liveAgents,
      };
  return { plan, targets: t, next, record, ...(replaced ? { replaced } : {}), ...(inPlace ? { inPlace } : {}) };
}

/** Whether the plan changes anything at all. */
export function changesAnything(plan: UpgradePlan): boolean {
  return plan.objects.some((p) => p.action !== 'unchanged');
}

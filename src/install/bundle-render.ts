/**
 * A bundle rendered for one fleet: the control plane for the hosting cluster (namespace, HA or
 * not), the CRDs for the control plane, the agent for each workload cluster under its name. What
 * the install applies, what an upgrade compares and applies, and what the cluster records.
 */
import type { Manifest } from '../kube/api/apply.js';
import { type Bundle, DEFAULT_HA_REPLICAS, forNamespace, withClusterName, withHA, withoutHA } from './bundle.js';

export interface RenderOptions {
  namespace: string;
  ha: boolean;
  topologyKey: string;
  /** The names the workload clusters register under. */
  clusters: readonly string[];
}

/** The objects of a bundle as they go into the clusters of one fleet. */
export interface RenderedBundle {
  /** The bundle's directory when it was rendered. */
  source: string;
  ha: boolean;
  topologyKey: string;
  /** The hosting cluster's objects (without the apiserver Service, which is created on its own and kept). */
  controlPlane: Manifest[];
  /** The CustomResourceDefinitions, in the control plane. */
  crds: Manifest[];
  /** The agent's objects per cluster name. */
  agents: Record<string, Manifest[]>;
}

export function renderBundle(bundle: Bundle, o: RenderOptions): RenderedBundle {
  const cp = o.ha
    ? withHA(bundle.controlPlane, { replicas: DEFAULT_HA_REPLICAS, topologyKey: o.topologyKey })
    : withoutHA(bundle.controlPlane);
  return {
    source: bundle.source,
    ha: o.ha,
    topologyKey: o.topologyKey,
    controlPlane: forNamespace(cp, o.namespace) as Manifest[],
    crds: bundle.crds as Manifest[],
    agents: Object.fromEntries(o.clusters.map((c) => [c, forNamespace(withClusterName(bundle.agent, c), o.namespace) as Manifest[]])),
  };
}

/** Whether two renderings put the same objects into the clusters (the source directory aside). */
export function sameObjects(a: RenderedBundle, b: RenderedBundle): boolean {
  const key = (r: RenderedBundle) => JSON.stringify([r.controlPlane, r.crds, r.agents]);
  return key(a) === key(b);
}

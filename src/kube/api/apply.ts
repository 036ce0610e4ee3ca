import { KubernetesObjectApi, loadYaml, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { makeClient, statusCode } from '../transport/client.js';

/** The field manager fleetdeck applies as (server-side apply). */
export const FIELD_MANAGER = 'fleetdeck';

/** A manifest object: kind, apiVersion and a name are required. */
export interface Manifest extends KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: NonNullable<KubernetesObject['metadata']> & { name: string };
  [field: string]: unknown;
}

export type ApplyAction = 'created' | 'configured' | 'unchanged';

/** What applying an object would do, decided before anything is written. */
export type PlannedAction = 'create' | 'update' | 'unchanged';

export interface ApplyResult {
  /** `Kind/namespace/name` (or `Kind/name`). */
  ref: string;
  action: ApplyAction;
}

/** Identifies an object in messages: `Deployment elotl/apiserver`, `Namespace elotl`. */
export function objectRef(obj: Pick<Manifest, 'kind' | 'metadata'>): string {
  const ns = obj.metadata.namespace;
  return `${obj.kind} ${ns ? `${ns}/` : ''}${obj.metadata.name}`;
}

/**
 * The object as client-node's model of its kind, ready for `KubernetesObjectApi` (create,
 * patch, replace). Those methods serialize their argument through the kind's model, which
 * reads the model's property names: given a manifest as parsed, they silently drop every field
 * whose JSON name differs (`x-kubernetes-preserve-unknown-fields`, `default`, `enum`, `$ref`
 * of a CRD schema). Custom kinds are returned as they are.
 */
export function toClientObject(obj: KubernetesObject): KubernetesObject {
  return loadYaml<KubernetesObject>(JSON.stringify(obj));
}

/** The parts of an object the server owns or changes on every write: ignored when comparing. */
function comparable(obj: unknown): unknown {
  const o = structuredClone(obj) as Record<string, unknown> & { metadata?: Record<string, unknown> };
  if (o.metadata) {
    for (const k of ['managedFields', 'resourceVersion', 'generation', 'creationTimestamp', 'uid', 'selfLink']) delete o.metadata[k];
  }
  delete o.status;
  return o;
}

/**
 * Create-or-update through server-side apply (idempotent: applying the same object twice
 * changes nothing the second time), as client-node's generic object API does it. With `dryRun`
 * the server validates and computes the result without persisting it; the action then says
 * what would happen.
 */
export class Applier {
  private readonly api: KubernetesObjectApi;

  constructor(kc: KubeConfig, timeoutMs = 30_000) {
    this.api = makeClient(kc, KubernetesObjectApi, timeoutMs);
  }

  /** The object as the server has it, or undefined. */
  async read<T extends Manifest>(obj: Pick<Manifest, 'apiVersion' | 'kind' | 'metadata'>): Promise<T | undefined> {
    try {
      return (await this.api.read({
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace },
      } as Manifest)) as T;
    } catch (err) {
      if (statusCode(err) === 404) return undefined;
      throw err;
    }
  }

  /**
   * What applying `obj` would do, without writing: `create` when the server has no such object
   * (or cannot have it yet: its namespace or its CRD is still to come), else a server-side dry-run
   * apply compared with the object as it is (server bookkeeping and status ignored): `unchanged`
   * or `update`.
   */
  async plan(obj: Manifest): Promise<PlannedAction> {
    return (await this.planCompared(obj)).action;
  }

  /** `plan`, with the two objects compared (bookkeeping and status removed) when the object exists. */
  async planCompared(obj: Manifest): Promise<{ action: PlannedAction; live?: unknown; applied?: unknown }> {
    let before: Manifest | undefined;
    try {
      before = await this.read(obj);
    } catch (err) {
      // The kind is not served yet (its CRD is applied first): nothing of it can exist.
      if (err instanceof Error && /Unrecognized API version and kind/.test(err.message)) return { action: 'create' };
      throw err;
    }
    if (!before) return { action: 'create' };
    const after = await this.patch(obj, true).catch((err: unknown) => {
      if (statusCode(err) === 404) return undefined;
      throw err;
    });
    if (!after) return { action: 'create' };
    const live = comparable(before);
    const applied = comparable(after);
    return { action: JSON.stringify(live) === JSON.stringify(applied) ? 'unchanged' : 'update', live, applied };
  }

  private patch(obj: Manifest, dryRun: boolean): Promise<Manifest> {
    return this.api.patch(
      toClientObject(obj),
      undefined,
      dryRun ? 'All' : undefined,
      FIELD_MANAGER,
      true,
      PatchStrategy.ServerSideApply,
    ) as Promise<Manifest>;
  }

  async apply(obj: Manifest, opts: { dryRun?: boolean } = {}): Promise<ApplyResult> {
    const ref = objectRef(obj);
    const before = await this.read(obj);
    if (opts.dryRun && !before) return { ref, action: 'created' };
    let after: Manifest;
    try {
      after = await this.patch(obj, opts.dryRun === true);
    } catch (err) {
      // A dry run of an object in a namespace that does not exist yet: it would be created.
      if (opts.dryRun && statusCode(err) === 404) return { ref, action: 'created' };
      throw err;
    }
    if (!before) return { ref, action: 'created' };
    // Unchanged when nothing but server bookkeeping differs (an apply may still bump the
    // resourceVersion, e.g. a StatefulSet's volumeClaimTemplates on v1.20, or a controller may
    // have written status meanwhile).
    const same =
      before.metadata.resourceVersion === after.metadata.resourceVersion ||
      JSON.stringify(comparable(before)) === JSON.stringify(comparable(after));
    return { ref, action: same ? 'unchanged' : 'configured' };
  }

  /**
   * Deletes the object (foreground: dependents first) unless it is already gone; true when it
   * existed. The options travel in the body (v1.20 ignores query parameters of a DELETE with a body).
   */
  async delete(obj: Pick<Manifest, 'apiVersion' | 'kind' | 'metadata'>): Promise<boolean> {
    try {
      await this.api.delete(
        {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace },
        } as Manifest,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        { propagationPolicy: 'Foreground' },
      );
      return true;
    } catch (err) {
      if (statusCode(err) === 404) return false;
      throw err;
    }
  }
}

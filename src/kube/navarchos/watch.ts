/**
 * Watching Návarchos in one context: the CRDs by name (field selector `metadata.name`), so a
 * cluster without Návarchos costs two quiet watches and nothing is polled; the NodeRollout and
 * NodeReplacement watches start when the CRD is established and stop when it goes.
 */
import { ApiextensionsV1Api, CustomObjectsApi, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { makeClient } from '../transport/client.js';
import { WatchedCollection, coalesce } from '../watch/collection.js';
import {
  compareReplacements,
  compareRollouts,
  NAVARCHOS_CRDS,
  NAVARCHOS_GROUP,
  NAVARCHOS_VERSION,
  REPLACEMENTS,
  ROLLOUTS,
  summarizeNodeReplacement,
  summarizeNodeRollout,
  type NavarchosState,
  type NodeReplacementObject,
  type NodeReplacementSummary,
  type NodeRolloutObject,
  type NodeRolloutSummary,
} from './objects.js';
import type { ListResult } from '../watch/watch.js';

interface CrdState {
  established: boolean;
  deleting: boolean;
}

function crdState(crd: V1CustomResourceDefinition): CrdState {
  return {
    established: (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True'),
    deleting: !!crd.metadata?.deletionTimestamp,
  };
}

const noop = () => {};

class NavarchosWatcher {
  private readonly crds: Record<keyof typeof NAVARCHOS_CRDS, WatchedCollection<V1CustomResourceDefinition, CrdState>>;
  private rollouts: WatchedCollection<NodeRolloutObject, NodeRolloutSummary> | undefined;
  private replacements: WatchedCollection<NodeReplacementObject, NodeReplacementSummary> | undefined;
  private readonly custom: CustomObjectsApi;
  private readonly stopping = new Set<Promise<void>>();
  private readonly publish = coalesce(() => this.publishNow());
  private last = '';
  private stopped = true;

  constructor(
    private readonly kc: KubeConfig,
    private readonly onChange: (state: NavarchosState) => void,
  ) {
    const ext = makeClient(kc, ApiextensionsV1Api);
    this.custom = makeClient(kc, CustomObjectsApi);
    const crd = (name: string) => {
      const fieldSelector = `metadata.name=${name}`;
      return new WatchedCollection<V1CustomResourceDefinition, CrdState>({
        kc,
        resource: 'customresourcedefinitions',
        path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
        queryParams: { fieldSelector },
        list: () => ext.listCustomResourceDefinition({ fieldSelector }),
        summarize: crdState,
        onChange: () => this.changed(),
        onDisconnect: noop,
      });
    };
    this.crds = { rollouts: crd(NAVARCHOS_CRDS.rollouts), replacements: crd(NAVARCHOS_CRDS.replacements) };
  }

  /** Whether the CRD serves objects: established and not being deleted; `undefined` while unknown. */
  private serves(which: keyof typeof NAVARCHOS_CRDS): boolean | undefined {
    const c = this.crds[which];
    if (c.synced) return c.values().some((s) => s.established && !s.deleting);
    // CRDs cannot be read (403): watch the objects anyway, a 404 there says "not installed".
    if (c.forbidden !== undefined) return true;
    return undefined;
  }

  private changed(): void {
    if (this.stopped) return;
    this.reconcile();
    this.publish.request();
  }

  private retire(c: { stop(): Promise<void> }): void {
    const p = c.stop().finally(() => this.stopping.delete(p));
    this.stopping.add(p);
  }

  private reconcile(): void {
    const wantRollouts = this.serves('rollouts');
    if (wantRollouts === true && !this.rollouts) {
      this.rollouts = new WatchedCollection<NodeRolloutObject, NodeRolloutSummary>({
        kc: this.kc,
        resource: NAVARCHOS_CRDS.rollouts,
        path: `/apis/${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}/${ROLLOUTS.plural}`,
        list: () => this.custom.listClusterCustomObject({ ...ROLLOUTS }) as Promise<ListResult<NodeRolloutObject>>,
        summarize: summarizeNodeRollout,
        onChange: () => this.changed(),
        onDisconnect: noop,
        backoff: { initialMs: 250, maxMs: 5_000 },
      });
      this.rollouts.start();
    } else if (wantRollouts === false && this.rollouts) {
      this.retire(this.rollouts);
      this.rollouts = undefined;
    }
    const wantReplacements = this.serves('replacements');
    if (wantReplacements === true && !this.replacements) {
      this.replacements = new WatchedCollection<NodeReplacementObject, NodeReplacementSummary>({
        kc: this.kc,
        resource: NAVARCHOS_CRDS.replacements,
        path: `/apis/${NAVARCHOS_GROUP}/${NAVARCHOS_VERSION}/${REPLACEMENTS.plural}`,
        list: () => this.custom.listClusterCustomObject({ ...REPLACEMENTS }) as Promise<ListResult<NodeReplacementObject>>,
        summarize: summarizeNodeReplacement,
        onChange: () => this.changed(),
        onDisconnect: noop,
        backoff: { initialMs: 250, maxMs: 5_000 },
      });
      this.replacements.start();
    } else if (wantReplacements === false && this.replacements) {
      this.retire(this.replacements);
      this.replacements = undefined;
    }
  }

  state(): NavarchosState {
    const inferred = !this.crds.rollouts.synced && this.crds.rollouts.forbidden !== undefined;
    // A collection still waiting for its first list (e.g. a CRD just created) is not an answer yet.
    const listed = (c: { answered: boolean; notFound: boolean } | undefined) => c === undefined || c.answered || (inferred && c.notFound);
    const installed = inferred ? this.rollouts?.synced === true : this.serves('rollouts') === true;
    const state: NavarchosState = {
      installed,
      synced: this.crds.rollouts.answered && this.crds.replacements.answered && listed(this.rollouts) && listed(this.replacements),
      rollouts: installed ? (this.rollouts?.values() ?? []).sort(compareRollouts) : [],
      replacements: installed ? (this.replacements?.values() ?? []).sort(compareReplacements) : [],
    };
    const problems = [this.crds.rollouts, this.crds.replacements, this.rollouts, this.replacements]
      .flatMap((c) => (c ? [c.forbidden ?? (c.notFound ? undefined : c.lastError)] : []))
      .filter((m): m is string => m !== undefined);
    if (problems.length) state.error = [...new Set(problems)].join('; ');
    return state;
  }

  private publishNow(): void {
    if (this.stopped) return;
    const s = this.state();
    const key = JSON.stringify(s);
    if (key === this.last) return;
    this.last = key;
    this.onChange(s);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.crds.rollouts.start();
    this.crds.replacements.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.publish.cancel();
    const running = [this.crds.rollouts, this.crds.replacements, this.rollouts, this.replacements].filter((c) => c !== undefined);
    this.rollouts = undefined;
    this.replacements = undefined;
    await Promise.all([...running.map((c) => c.stop()), ...this.stopping]);
  }
}

/**
 * Watches Návarchos in one context (its KubeConfig): `onChange` gets the whole picture on every
 * change (coalesced, never twice the same). Without the CRDs, `installed: false`; the CRDs
 * appearing (or going) is seen through their watch. Resolves once `signal` aborted and every
 * watch stopped.
 */
export function watchNavarchos(kc: KubeConfig, onChange: (state: NavarchosState) => void, signal: AbortSignal): Promise<void> {
  const w = new NavarchosWatcher(kc, onChange);
  return new Promise<void>((resolve) => {
    const stop = () => void w.stop().then(resolve, resolve);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    w.start();
  });
}

/**
 * One pass of a Nova agent over its workload cluster: every control-plane object placed on its
 * cluster has its copy there (its namespace made first), copies no longer placed here are
 * deleted, and the status of the copies of Deployments, StatefulSets and ReplicaSets flows
 * back (and a copy whose pods stay Pending asks to be placed elsewhere: reschedule.ts): each agent writes its cluster's part in an annotation of the control-plane object and
 * the sum of the parts of the clusters it is placed on as that object's status.
 */
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import type { ApiObject } from '../../../kube/api/api-resources.js';
import { Applier } from '../../../kube/api/apply.js';
import { kindOf, POLICIES } from '../../../kube/nova/kinds.js';
import { readWorkloads } from '../../../kube/nova/read.js';
import { makeClient, statusCode } from '../../../kube/transport/client.js';
import { COPY_LABEL, STATUS_ANNOTATION_PREFIX } from '../../../placement/semantics.js';
import { policyView } from '../../../placement/views.js';
import { COPY_HASH, copyOf } from './copy.js';
import { triggerRescheduling } from './reschedule.js';
import { EventRecorder } from '../../../kube/events/event-recorder.js';
import { placedOn, spreadOf } from '../../../placement/targets.js';

const key = (o: ApiObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export interface Counts {
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  updatedReplicas: number;
}

const countsOf = (o: ApiObject | undefined): Counts => {
  const s = (o as { status?: Partial<Counts> } | undefined)?.status ?? {};
  return {
    replicas: s.replicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
  };
};

export class CopySync {
  private readonly local: KubernetesObjectApi;
  private readonly applier: Applier;
  private readonly cp: KubernetesObjectApi;
  private readonly cpApps: AppsV1Api;
  private readonly localCore: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly events: EventRecorder;

  constructor(
    private readonly cpKc: KubeConfig,
    private readonly localKc: KubeConfig,
    private readonly cluster: string,
    /** The agent's namespace: the value of COPY_LABEL on its copies. */
    private readonly owner: string,
  ) {
    this.local = makeClient(localKc, KubernetesObjectApi, 15_000);
    this.applier = new Applier(localKc, 15_000);
    this.cp = makeClient(cpKc, KubernetesObjectApi, 15_000);
    this.cpApps = makeClient(cpKc, AppsV1Api, 15_000);
    this.localCore = makeClient(localKc, CoreV1Api, 15_000);
    this.custom = makeClient(cpKc, CustomObjectsApi, 15_000);
    this.events = new EventRecorder(cpKc, { component: 'nova-agent', instance: cluster });
  }

  /** One pass; resolves with the number of objects placed here. */
  async pass(): Promise<number> {
    const [sources, copies] = await Promise.all([readWorkloads(this.cpKc, 15_000), readWorkloads(this.localKc, 15_000)]);
    const mine = sources.filter((o) =>
      placedOn(o.metadata.labels as Record<string, string>, o.metadata.annotations as Record<string, string>).includes(this.cluster),
    );
    const have = new Map(
      copies.filter((c) => (c.metadata.labels as Record<string, string> | undefined)?.[COPY_LABEL] === this.owner).map((c) => [key(c), c]),
    );
    const policies = mine.some((o) => spreadOf(o.metadata.annotations as Record<string, string>)) ? await this.policies() : [];
    for (const src of mine) {
      const spread = spreadOf(src.metadata.annotations as Record<string, string>);
      const share = spread?.shares.find((s) => s.cluster === this.cluster);
      const copy = copyOf(
        src,
        share,
        policies.find((p) => p.name === spread?.policy),
        this.owner,
      );
      const existing = have.get(key(src));
      have.delete(key(src));
      if (
        (existing?.metadata.annotations as Record<string, string> | undefined)?.[COPY_HASH] !==
        (copy.metadata.annotations as Record<string, string>)[COPY_HASH]
      ) {
        if (copy.metadata.namespace) await this.ensureNamespace(copy.metadata.namespace);
        await this.applier.apply(copy as never);
      }
      if (kindOf(src.kind)?.statusFlowsBack) {
        await this.feedBack(src, existing);
        await triggerRescheduling({ core: this.localCore, cp: this.cp, events: this.events, cluster: this.cluster }, src, existing);
      }
    }
    for (const stale of have.values())
      await this.local.delete(stale as KubernetesObject).catch((err: unknown) => {
        if (statusCode(err) !== 404) throw err;
      });
    return mine.length;
  }

  private async policies() {
    const list = (await this.custom.listClusterCustomObject({
      group: POLICIES.group,
      version: POLICIES.version,
      plural: POLICIES.resource,
    })) as { items: ApiObject[] };
    return list.items.map(policyView);
  }

  private async ensureNamespace(name: string): Promise<void> {
    try {
      await this.localCore.readNamespace({ name });
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
      await this.localCore.createNamespace({ body: { metadata: { name, labels: { [COPY_LABEL]: this.owner } } } }).catch((e: unknown) => {
        if (statusCode(e) !== 409) throw e;
      });
    }
  }

  /** This cluster's part in the source's annotation; the sum over its clusters as its status. */
  private async feedBack(src: ApiObject, copy: ApiObject | undefined): Promise<void> {
    const annotations = (src.metadata.annotations as Record<string, string> | undefined) ?? {};
    const part = JSON.stringify(countsOf(copy));
    const mineKey = `${STATUS_ANNOTATION_PREFIX}${this.cluster}`;
    const clusters = placedOn(src.metadata.labels as Record<string, string>, annotations);
    const parts = { ...annotations, [mineKey]: part };
    const sum: Counts = { replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0 };
    for (const c of clusters) {
      const text = parts[`${STATUS_ANNOTATION_PREFIX}${c}`];
      if (!text) continue;
      const p = JSON.parse(text) as Counts;
      for (const k of Object.keys(sum) as (keyof Counts)[]) sum[k] += p[k] ?? 0;
    }
    const stale = Object.keys(annotations).filter(
      (k) => k.startsWith(STATUS_ANNOTATION_PREFIX) && !clusters.includes(k.slice(STATUS_ANNOTATION_PREFIX.length)),
    );
    if (annotations[mineKey] !== part || stale.length) {
      const patch = { [mineKey]: part, ...Object.fromEntries(stale.map((k) => [k, null])) };
      await this.cp.patch(
        {
          apiVersion: src.apiVersion,
          kind: src.kind,
          metadata: { name: src.metadata.name, namespace: src.metadata.namespace, annotations: patch },
        } as KubernetesObject,
        undefined,
        undefined,
        'nova-agent',
        undefined,
        PatchStrategy.MergePatch,
      );
    }
    const now = countsOf(src);
    const generation = src.metadata.generation as number | undefined;
    const observed = (src as { status?: { observedGeneration?: number } }).status?.observedGeneration;
    if (JSON.stringify(now) === JSON.stringify(sum) && observed === generation) return;
    const body = {
      status: { ...sum, observedGeneration: generation, ...(src.kind === 'StatefulSet' ? { currentReplicas: sum.updatedReplicas } : {}) },
    };
    const args = { name: src.metadata.name, namespace: src.metadata.namespace ?? '', body };
    if (src.kind === 'Deployment') await this.cpApps.patchNamespacedDeploymentStatus(args, mergePatch());
    else if (src.kind === 'StatefulSet') await this.cpApps.patchNamespacedStatefulSetStatus(args, mergePatch());
    else await this.cpApps.patchNamespacedReplicaSetStatus(args, mergePatch());
  }
}

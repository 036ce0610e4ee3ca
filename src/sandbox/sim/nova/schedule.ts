/**
 * One pass of the sandbox's Nova scheduler over a control plane: reads the Clusters, policies
 * and objects, groups the objects into units, decides each (placement/decide.ts), writes the
 * target on each object, keeps one ScheduleGroup per policy-placed unit, and tells what it did
 * in Events as Nova's scheduler does (SchedulePolicyMatched, AddedToScheduleGroup,
 * ScheduleGroupSyncedToWorkloadCluster; a Warning NoClusterFits for a unit left pending).
 */
import { CustomObjectsApi, KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { ApiObject } from '../../../kube/api/api-resources.js';
import type { EventObject, EventRecorder } from '../../../kube/events/event-recorder.js';
import { GROUPS } from '../../../kube/nova/kinds.js';
import { readControlPlane } from '../../../kube/nova/read.js';
import { makeClient, statusCode } from '../../../kube/transport/client.js';
import { decide, type Decision } from '../../../placement/decide.js';
import { MATCHING_POLICY_LABEL, NO_FIT_REASON, TARGET_LABEL } from '../../../placement/semantics.js';
import type { WorkloadView } from '../../../placement/types.js';
import { controlPlaneUnits, loneGroupName, type PlannedUnit } from '../../../placement/units.js';
import { clusterView } from '../../../placement/views.js';
import { avoidedBy, marked, markingsFor, placedOn } from '../../../placement/targets.js';
import { markStale } from './stale.js';

const GROUP_API_VERSION = `${GROUPS.group}/${GROUPS.version}`;
const GROUP = { group: GROUPS.group, version: GROUPS.version, plural: GROUPS.resource };

/** A unit's ScheduleGroup name: its groupBy group, or a group of one named after its policy. */
function groupNameOf(u: PlannedUnit): string | undefined {
  if (!u.policy) return undefined;
  return u.group?.name ?? loneGroupName(u.policy.name, u.id);
}

const eventObject = (w: WorkloadView): EventObject => ({
  apiVersion: w.ref.apiVersion,
  kind: w.ref.kind,
  name: w.ref.name,
  namespace: w.ref.namespace,
});

export class Scheduler {
  private readonly api: KubernetesObjectApi;
  private readonly custom: CustomObjectsApi;
  private readonly said = new Map<string, string>();

  constructor(
    private readonly kc: KubeConfig,
    private readonly events: EventRecorder,
  ) {
    this.api = makeClient(kc, KubernetesObjectApi, 15_000);
    this.custom = makeClient(kc, CustomObjectsApi, 15_000);
  }

  /** Records an Event once per subject and reason until `what` (the message, or where it went) changes. */
  private tell(subject: EventObject, type: 'Normal' | 'Warning', reason: string, message: string, what = message): void {
    const key = `${subject.kind}/${subject.namespace ?? ''}/${subject.name}/${reason}`;
    if (this.said.get(key) === what) return;
    this.said.set(key, what);
    this.events.record(subject, type, reason, message);
  }

  async pass(): Promise<void> {
    const cp = await readControlPlane(this.kc, 15_000);
    const silent = await markStale(this.custom, cp.clusters);
    const clusters = cp.clusters.map(clusterView).map((c) => (silent.includes(c.name) ? { ...c, ready: false } : c));
    const units = controlPlaneUnits(cp);
    const groups = new Set<string>();
    for (const u of units) {
      const current = [...new Set(u.members.flatMap((w) => placedOn(w.labels, w.annotations)))];
      const d = decide({ ...u, current, avoid: avoidedBy(u.members) }, clusters);
      for (const w of u.members) await this.mark(w, d, u.policy?.name);
      const group = groupNameOf(u);
      if (group) {
        groups.add(group);
        await this.syncGroup(group, u, d);
      }
      this.report(u, d, group);
    }
    // Only the groups a scheduler made (their matching-policy label) are its to delete.
    for (const g of cp.groups)
      if (!groups.has(g.metadata.name) && (g.metadata.labels as Record<string, string> | undefined)?.[MATCHING_POLICY_LABEL])
        await this.deleteGroup(g);
  }

  private async mark(w: WorkloadView, d: Decision, policy: string | undefined): Promise<void> {
    const m = markingsFor(w, d, policy);
    if (marked(w, m)) return;
    const body = { apiVersion: w.ref.apiVersion, kind: w.ref.kind, metadata: { name: w.ref.name, namespace: w.ref.namespace, ...m } };
    await this.api.patch(body as KubernetesObject, undefined, undefined, 'nova-scheduler', undefined, PatchStrategy.MergePatch);
  }

  private report(u: PlannedUnit, d: Decision, group: string | undefined): void {
    // A placement is told when it changes, not again when the next pass words it differently.
    const where = JSON.stringify(d.targets);
    const type = d.targets.length ? 'Normal' : 'Warning';
    for (const w of u.members) {
      const subject = eventObject(w);
      if (u.policy) {
        const also = u.conflicts[`${w.ref.kind}/${w.ref.namespace ? `${w.ref.namespace}/` : ''}${w.ref.name}`];
        const more = also?.length ? ` (also matching, not used: ${also.join(', ')})` : '';
        this.tell(
          subject,
          'Normal',
          'SchedulePolicyMatched',
          `schedule policy ${u.policy.name} will be used to determine target cluster${more}`,
        );
        if (group) this.tell(subject, 'Normal', 'AddedToScheduleGroup', `added to schedule group ${group}`);
      } else if (d.targets.length) this.tell(subject, 'Normal', 'Scheduled', d.message, where);
      if (!d.targets.length) this.tell(subject, 'Warning', NO_FIT_REASON, d.message);
    }
    if (group) {
      const subject = { apiVersion: GROUP_API_VERSION, kind: 'ScheduleGroup', name: group };
      this.tell(
        subject,
        type,
        d.targets.length ? 'ScheduleGroupSyncedToWorkloadCluster' : NO_FIT_REASON,
        d.message,
        d.targets.length ? where : d.message,
      );
    }
  }

  private async syncGroup(name: string, u: PlannedUnit, d: Decision): Promise<void> {
    const labels: Record<string, string> = { [MATCHING_POLICY_LABEL]: u.policy!.name };
    if (u.group) labels[u.group.labelKey] = u.group.value;
    if (d.mode === 'single' && d.targets[0]) labels[TARGET_LABEL] = d.targets[0].cluster;
    const objectRefs = u.members.map((w) => {
      const [group, version] = w.ref.apiVersion.includes('/') ? w.ref.apiVersion.split('/') : ['', w.ref.apiVersion];
      return { group, version, kind: w.ref.kind, namespace: w.ref.namespace ?? '', name: w.ref.name };
    });
    const spec = { objectRefs, policy: { name: u.policy!.name, namespace: '' } };
    const status = { scheduled: d.targets.length > 0, targets: d.targets.map((t) => t.cluster) };
    const have = (await this.custom.getClusterCustomObject({ ...GROUP, name }).catch((err: unknown) => {
      if (statusCode(err) !== 404) throw err;
      return undefined;
    })) as ApiObject | undefined;
    const haveStatus = have?.status as typeof status | undefined;
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    let obj = have;
    if (!have)
      obj = (await this.custom.createClusterCustomObject({
        ...GROUP,
        body: { apiVersion: GROUP_API_VERSION, kind: 'ScheduleGroup', metadata: { name, labels }, spec },
      })) as ApiObject;
    else if (!same(have.metadata.labels, labels) || !same(have.spec, spec))
      obj = (await this.custom.replaceClusterCustomObject({
        ...GROUP,
        name,
        body: { ...have, metadata: { ...have.metadata, labels }, spec },
      })) as ApiObject;
    if (haveStatus && same([haveStatus.scheduled, haveStatus.targets], [status.scheduled, status.targets])) return;
    await this.custom.replaceClusterCustomObjectStatus({
      ...GROUP,
      name,
      body: { ...obj, status: { ...status, lastStatusUpdate: new Date().toISOString() } },
    });
  }

  private async deleteGroup(g: ApiObject): Promise<void> {
    await this.custom.deleteClusterCustomObject({ ...GROUP, name: g.metadata.name }).catch((err: unknown) => {
      if (statusCode(err) !== 404) throw err;
    });
  }
}

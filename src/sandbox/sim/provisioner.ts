import fs from 'node:fs';
import {
  CoreV1Api,
  StorageV1Api,
  type V1PersistentVolume,
  type V1PersistentVolumeClaim,
  type V1StorageClass,
} from '@kubernetes/client-node';
import { makeClient } from '../../kube/transport/client.js';
import { ResilientWatch } from '../../kube/watch/watch.js';
import { FIELD_MANAGER, isConflict, isNotFound, retryUntil, watchErrorLogger, type SimContext } from './context.js';
import { WorkQueue } from './queue.js';
import { persistentVolumeDir } from './volumes.js';

export const SANDBOX_PROVISIONER = 'sandbox.fleetdeck.io/local';
export const DEFAULT_STORAGE_CLASS = 'standard';
export const LOCAL_VOLUME_ROOT = '/var/lib/fleetdeck-sandbox';

const PROVISIONER_ANNOTATIONS = ['volume.beta.kubernetes.io/storage-provisioner', 'volume.kubernetes.io/storage-provisioner'];
const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/**
 * Plays a dynamic volume provisioner for the default StorageClass `standard`: a claim the
 * PersistentVolume controller hands to it (annotation `volume.beta.kubernetes.io/storage-provisioner`)
 * gets a `local` PersistentVolume pinned to the node the scheduler picked, pre-bound to the
 * claim; the PV controller then binds both. Released volumes it provisioned are deleted.
 */
export class StorageProvisioner {
  private readonly core: CoreV1Api;
  private readonly storage: StorageV1Api;
  private readonly claims = new Map<string, V1PersistentVolumeClaim>();
  private readonly volumes = new Map<string, V1PersistentVolume>();
  private readonly claimQueue: WorkQueue;
  private readonly volumeQueue: WorkQueue;
  private readonly claimWatch: ResilientWatch<V1PersistentVolumeClaim>;
  private readonly volumeWatch: ResilientWatch<V1PersistentVolume>;
  private nextNode = 0;
  private stopped = true;

  constructor(private readonly ctx: SimContext) {
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.storage = makeClient(ctx.kc, StorageV1Api);
    this.claimQueue = new WorkQueue('claim', (key) => this.syncClaim(key), ctx.log, 4);
    this.volumeQueue = new WorkQueue('volume', (name) => this.syncVolume(name), ctx.log, 4);
    this.claimWatch = new ResilientWatch<V1PersistentVolumeClaim>({
      kc: ctx.kc,
      path: '/api/v1/persistentvolumeclaims',
      list: () => this.core.listPersistentVolumeClaimForAllNamespaces(),
      onList: (items) => {
        this.claims.clear();
        for (const c of items) this.observeClaim(c);
      },
      onEvent: (type, c) => {
        if (type === 'DELETED') this.claims.delete(keyOf(c));
        else this.observeClaim(c);
      },
      onError: watchErrorLogger(ctx.log, 'persistentvolumeclaims'),
    });
    this.volumeWatch = new ResilientWatch<V1PersistentVolume>({
      kc: ctx.kc,
      path: '/api/v1/persistentvolumes',
      list: () => this.core.listPersistentVolume(),
      onList: (items) => {
        this.volumes.clear();
        for (const v of items) this.observeVolume(v);
      },
      onEvent: (type, v) => {
        if (type === 'DELETED') this.volumes.delete(v.metadata?.name ?? '');
        else this.observeVolume(v);
      },
      onError: watchErrorLogger(ctx.log, 'persistentvolumes'),
    });
  }

  /** Ensures the default StorageClass (retrying until the API answers), then starts watching. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const ok = await retryUntil(`storage class ${DEFAULT_STORAGE_CLASS}`, () => this.ensureStorageClass(), {
      log: this.ctx.log,
      isStopped: () => this.stopped,
    });
    if (!ok) return;
    this.claimWatch.start();
    this.volumeWatch.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.claimWatch.stop(), this.volumeWatch.stop(), this.claimQueue.stop(), this.volumeQueue.stop()]);
  }

  private async ensureStorageClass(): Promise<true> {
    const body: V1StorageClass = {
      metadata: {
        name: DEFAULT_STORAGE_CLASS,
        annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      },
      provisioner: SANDBOX_PROVISIONER,
      volumeBindingMode: 'WaitForFirstConsumer',
      reclaimPolicy: 'Delete',
      allowVolumeExpansion: true,
    };
    try {
      await this.storage.createStorageClass({ body, fieldManager: FIELD_MANAGER });
      this.ctx.log(`storage: created default StorageClass ${DEFAULT_STORAGE_CLASS}`);
    } catch (err) {
      if (!isConflict(err)) throw err; // already there: leave it as it is
    }
    return true;
  }

  private observeClaim(claim: V1PersistentVolumeClaim): void {
    this.claims.set(keyOf(claim), claim);
    if (this.wantsVolume(claim)) this.claimQueue.add(keyOf(claim));
  }

  private observeVolume(pv: V1PersistentVolume): void {
    const name = pv.metadata?.name ?? '';
    this.volumes.set(name, pv);
    if (this.isReleased(pv)) this.volumeQueue.add(name);
  }

  private wantsVolume(claim: V1PersistentVolumeClaim): boolean {
    const annotations = claim.metadata?.annotations ?? {};
    return (
      !claim.metadata?.deletionTimestamp &&
      !claim.spec?.volumeName &&
      (claim.status?.phase ?? 'Pending') === 'Pending' &&
      PROVISIONER_ANNOTATIONS.some((a) => annotations[a] === SANDBOX_PROVISIONER)
    );
  }

  private isReleased(pv: V1PersistentVolume): boolean {
    return (
      pv.status?.phase === 'Released' &&
      pv.spec?.persistentVolumeReclaimPolicy === 'Delete' &&
      pv.metadata?.annotations?.[PROVISIONED_BY_ANNOTATION] === SANDBOX_PROVISIONER &&
      !pv.metadata?.deletionTimestamp
    );
  }

  /** Any schedulable, Ready node, round-robin (for claims with Immediate binding). */
  private async pickNode(): Promise<string | undefined> {
    const nodes = (await this.core.listNode()).items.filter(
      (n) =>
        !n.spec?.unschedulable &&
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') &&
        n.metadata?.labels?.[HOSTNAME_LABEL],
    );
    if (nodes.length === 0) return undefined;
    const node = nodes[this.nextNode++ % nodes.length];
    return node?.metadata?.labels?.[HOSTNAME_LABEL];
  }

  private async syncClaim(key: string): Promise<void> {
    const claim = this.claims.get(key);
    if (!claim || !this.wantsVolume(claim)) return;
    const pvName = `pvc-${claim.metadata?.uid ?? ''}`;
    if (this.volumes.has(pvName)) return; // provisioned already; the PV controller binds it
    const size = claim.spec?.resources?.requests?.storage;
    if (!size) {
      this.ctx.log(`storage: claim ${key} requests no storage size; not provisioning`);
      return;
    }
    const node = claim.metadata?.annotations?.[SELECTED_NODE_ANNOTATION] ?? (await this.pickNode());
    if (!node) throw new Error('no Ready node to place the volume on');
    const pv: V1PersistentVolume = {
      metadata: {
        name: pvName,
        annotations: { [PROVISIONED_BY_ANNOTATION]: SANDBOX_PROVISIONER },
      },
      spec: {
        capacity: { storage: size },
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
        storageClassName: claim.spec?.storageClassName ?? DEFAULT_STORAGE_CLASS,
        persistentVolumeReclaimPolicy: 'Delete',
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          namespace: claim.metadata?.namespace ?? '',
          name: claim.metadata?.name ?? '',
          uid: claim.metadata?.uid ?? '',
        },
        local: { path: `${LOCAL_VOLUME_ROOT}/${pvName}` },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [node] }] }],
          },
        },
      },
    };
    try {
      const created = await this.core.createPersistentVolume({ body: pv, fieldManager: FIELD_MANAGER });
      this.volumes.set(pvName, created);
      this.ctx.log(`storage: provisioned ${pvName} (${size}) on ${node} for ${key}`);
    } catch (err) {
      if (!isConflict(err)) throw err; // already provisioned
    }
  }

  private async syncVolume(name: string): Promise<void> {
    const pv = this.volumes.get(name);
    if (!pv || !this.isReleased(pv)) return;
    try {
      await this.core.deletePersistentVolume({ name, body: { preconditions: { uid: pv.metadata?.uid ?? '' } } });
      // Its data, where pods that run for real kept it.
      if (this.ctx.runtime) fs.rmSync(persistentVolumeDir(this.ctx.runtime.dir, name), { recursive: true, force: true });
      this.ctx.log(`storage: deleted released volume ${name}`);
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}

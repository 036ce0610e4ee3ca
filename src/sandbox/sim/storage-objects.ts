import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type V1CustomResourceDefinition, type V1Node } from '@kubernetes/client-node';
import { toClientObject } from '../../kube/api/apply.js';
import { makeClient } from '../../kube/transport/client.js';
import { ResilientWatch } from '../../kube/watch/watch.js';
import { BLOCKDEVICE, LVMNODE, OPENEBS_NAMESPACE } from '../../storage/inventory.js';
import { FIELD_MANAGER, isConflict, isNotFound, retryUntil, sleep, watchErrorLogger, type SimContext } from './context.js';
import { SANDBOX_NODE_ANNOTATION } from './node-status.js';
import { SIMULATED_STORAGE_CRDS } from './openebs-crds.js';
import { WorkQueue } from './queue.js';
import { blockDeviceObjects, lvmNodeObject, type NodeRef } from './storage-profile.js';

/*
 * Plays OpenEBS's node agents: writes the CRDs (see openebs-crds.ts) and every sandbox node's
 * LVMNode and BlockDevices (see storage-profile.ts).
 */

export { SIMULATED_STORAGE_CRDS } from './openebs-crds.js';
export { SMALL_NODE_ORDINAL, blockDeviceObjects, lvmNodeObject, storageProfile } from './storage-profile.js';

/** Creates the two CRDs (kept when there) and the `openebs` namespace; resolves once both CRDs are Established. */
export async function ensureStorageCrds(kc: SimContext['kc'], timeoutMs = 60_000): Promise<void> {
  const ext = makeClient(kc, ApiextensionsV1Api);
  const core = makeClient(kc, CoreV1Api);
  for (const body of SIMULATED_STORAGE_CRDS) {
    await ext
      .createCustomResourceDefinition({ body: toClientObject(body) as V1CustomResourceDefinition, fieldManager: FIELD_MANAGER })
      .catch((err: unknown) => {
        if (!isConflict(err)) throw err;
      });
  }
  await core.createNamespace({ body: { metadata: { name: OPENEBS_NAMESPACE } }, fieldManager: FIELD_MANAGER }).catch((err: unknown) => {
    if (!isConflict(err)) throw err;
  });
  const deadline = Date.now() + timeoutMs;
  for (const body of SIMULATED_STORAGE_CRDS) {
    for (;;) {
      const crd = await ext.readCustomResourceDefinition({ name: body.metadata.name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${body.metadata.name} not established`);
      await sleep(100);
    }
  }
}

/** Creates the node's LVMNode and BlockDevices (those there already are kept). */
export async function ensureNodeStorage(kc: SimContext['kc'], node: NodeRef): Promise<void> {
  const custom = makeClient(kc, CustomObjectsApi);
  const create = (plural: string, group: string, version: string, body: object) =>
    custom
      .createNamespacedCustomObject({ group, version, plural, namespace: OPENEBS_NAMESPACE, body, fieldManager: FIELD_MANAGER })
      .catch((err: unknown) => {
        if (!isConflict(err)) throw err;
      });
  await create(LVMNODE.plural, LVMNODE.group, LVMNODE.version, lvmNodeObject(node));
  for (const bd of blockDeviceObjects(node)) await create(BLOCKDEVICE.plural, BLOCKDEVICE.group, BLOCKDEVICE.version, bd);
}

/** The CRDs and every sandbox node's objects of one cluster (e.g. to put them back after a test removed them). */
export async function ensureSimulatedStorage(kc: SimContext['kc'], clusterName: string): Promise<void> {
  await ensureStorageCrds(kc);
  const nodes = (await makeClient(kc, CoreV1Api).listNode()).items;
  for (const n of nodes) {
    if (n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] !== clusterName || !n.metadata.uid) continue;
    await ensureNodeStorage(kc, { name: n.metadata.name ?? '', uid: n.metadata.uid });
  }
}

/**
 * Plays OpenEBS's node agents for one cluster: installs the CRDs, then gives every node the
 * kubelet registers (now and later, replacements included) its LVMNode and BlockDevices.
 * Objects are written once per Node (by UID): what a test changes or deletes stays so.
 */
export class SimulatedStorage {
  private readonly core: CoreV1Api;
  private readonly nodes = new Map<string, V1Node>();
  private readonly done = new Map<string, string>();
  private readonly queue: WorkQueue;
  private readonly watch: ResilientWatch<V1Node>;
  private stopped = true;

  constructor(private readonly ctx: SimContext) {
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.queue = new WorkQueue('storage objects', (name) => this.sync(name), ctx.log, 4);
    this.watch = new ResilientWatch<V1Node>({
      kc: ctx.kc,
      path: '/api/v1/nodes',
      list: () => this.core.listNode(),
      onList: (items) => {
        this.nodes.clear();
        for (const n of items) this.observe(n);
      },
      onEvent: (type, n) => {
        if (type === 'DELETED') {
          this.nodes.delete(n.metadata?.name ?? '');
          this.done.delete(n.metadata?.name ?? '');
        } else this.observe(n);
      },
      onError: watchErrorLogger(ctx.log, 'nodes (storage objects)'),
    });
  }

  /** Installs the CRDs and writes the objects of the nodes there are; then follows new nodes. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const ok = await retryUntil('OpenEBS CRDs', () => ensureStorageCrds(this.ctx.kc).then(() => true), {
      log: this.ctx.log,
      isStopped: () => this.stopped,
    });
    if (!ok) return;
    const nodes = await retryUntil('list nodes (storage objects)', () => this.core.listNode(), {
      log: this.ctx.log,
      isStopped: () => this.stopped,
    });
    const ours = (nodes?.items ?? []).filter((n) => this.ours(n));
    for (const n of ours) this.nodes.set(n.metadata!.name!, n);
    for (let i = 0; i < ours.length; i += 8) {
      await Promise.all(
        ours.slice(i, i + 8).map((n) =>
          retryUntil(`storage objects of ${n.metadata!.name}`, () => this.sync(n.metadata!.name!), {
            log: this.ctx.log,
            isStopped: () => this.stopped,
          }),
        ),
      );
    }
    this.ctx.log(`storage: OpenEBS LVMNodes and BlockDevices written for ${this.done.size} node(s)`);
    this.watch.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.watch.stop(), this.queue.stop()]);
  }

  private ours(n: V1Node): boolean {
    return n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] === this.ctx.cluster.name && !!n.metadata.name && !!n.metadata.uid;
  }

  private observe(n: V1Node): void {
    if (!this.ours(n)) return;
    const name = n.metadata!.name!;
    this.nodes.set(name, n);
    if (this.done.get(name) !== n.metadata!.uid) this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    const n = this.nodes.get(name);
    const uid = n?.metadata?.uid;
    if (!n || !uid || this.done.get(name) === uid || this.stopped) return;
    try {
      await ensureNodeStorage(this.ctx.kc, { name, uid });
    } catch (err) {
      // Without the CRDs (someone deleted them) there is nothing to write to; retried with backoff.
      if (isNotFound(err)) throw new Error(`OpenEBS CRDs not installed: ${name}'s LVMNode and BlockDevices not written`);
      throw err;
    }
    this.done.set(name, uid);
  }
}

/**
 * The feeds of the Rollouts, Storage and Approvals tabs, each started when first needed with its
 * workflows loaded then (their own chunk, so the dashboard starts fast), as the Actions the
 * screens call.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Actions } from '../store/actions.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import type { ApprovalsFeed, ApprovalsWork } from './approvals.js';
import { lazyFeed } from './lazy.js';
import type { RolloutsFeed, RolloutWork } from './rollouts.js';
import type { StorageFeed, StorageWork } from './storage.js';

/** Each tab's workflows bound to a session's KubeConfigs. */
export interface TabWork {
  rollouts: (kc: (context: string) => KubeConfig) => Promise<RolloutWork>;
  storage: (kc: (context: string) => KubeConfig) => Promise<StorageWork>;
  approvals: (kc: (context: string) => KubeConfig) => Promise<ApprovalsWork>;
}

const REAL: TabWork = {
  rollouts: async (kc) => (await import('./rollout-work.js')).rolloutWork(kc),
  storage: async (kc) => (await import('./storage-work.js')).storageWork(kc),
  approvals: async (kc) => (await import('./approvals-work.js')).approvalsWork(kc),
};

const notLoaded = (what: string) => Promise.reject(new Error(`${what} are not loaded yet`));

export function tabFeeds(store: FleetStore, kc: (context: string) => KubeConfig, work: Partial<TabWork> = {}) {
  const w: TabWork = { ...REAL, ...work };
  let unsubscribe = () => {};

  const rollouts = lazyFeed(
    async (): Promise<RolloutsFeed> => {
      const { startRolloutsFeed } = await import('./rollouts.js');
      const feed = startRolloutsFeed(store, await w.rollouts(kc));
      feed.setContexts(store.getState().status.order);
      unsubscribe = store.subscribe((s, prev) => {
        if (s.status.order !== prev.status.order) feed.setContexts(s.status.order);
      });
      return feed;
    },
    (status) => updateSlice(store, 'rollouts', (s) => ({ ...s, status })),
  );
  const storage = lazyFeed(
    async (): Promise<StorageFeed> => (await import('./storage.js')).startStorageFeed(store, await w.storage(kc)),
    (status) => updateSlice(store, 'storage', (s) => ({ ...s, status })),
  );
  const approvals = lazyFeed(
    async (): Promise<ApprovalsFeed> => (await import('./approvals.js')).startApprovalsFeed(store, await w.approvals(kc)),
    (status) => updateSlice(store, 'approvals', (s) => ({ ...s, status })),
    { retry: true },
  );

  const actions: Required<Pick<Actions, 'rollouts' | 'storage' | 'approvals'>> = {
    rollouts: {
      show: () => void rollouts.start(),
      run: (spec, inCluster) => rollouts.current()?.run(spec, inCluster),
      inClusterDefault: (context) => rollouts.current()?.inClusterDefault?.(context) ?? false,
      resume: (context, name) => rollouts.current()?.resume(context, name),
      abort: (context, name) => rollouts.current()?.abort(context, name),
      createNodeRollout: (context, request) => rollouts.current()?.createNodeRollout(context, request) ?? notLoaded('rollouts'),
      listNodes: (context) => rollouts.current()?.listNodes(context) ?? notLoaded('rollouts'),
      dryRun: (spec, plan) => rollouts.current()?.dryRun(spec, plan) ?? notLoaded('rollouts'),
    },
    storage: {
      show: () => void storage.start(),
      // Asked for as the screen first shows (the feed may be reporting itself on this very moment).
      read: (target) =>
        void storage.start().then(
          (feed) => feed.read(target),
          () => {},
        ),
    },
    approvals: {
      open(context) {
        updateSlice(store, 'approvals', (s) => ({ status: s.status, context }));
        approvals.start().then(
          (feed) => {
            if (store.getState().approvals.context === context) feed.open(context);
          },
          () => {},
        );
      },
      close() {
        const feed = approvals.current();
        if (feed) feed.close();
        else updateSlice(store, 'approvals', (s) => ({ status: s.status }));
      },
      approve: (name) => approvals.current()?.approve(name),
      deny: (name) => approvals.current()?.deny(name),
    },
  };

  return {
    actions,
    /** The session changed: every watch again, with its new KubeConfigs. */
    restart() {
      rollouts.current()?.restart();
      approvals.current()?.restart();
    },
    async stop() {
      unsubscribe();
      approvals.current()?.stop();
      await rollouts.current()?.close();
    },
  };
}

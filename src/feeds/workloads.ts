/**
 * The Workloads tab's feed: while the tab is shown, the control plane's workloads and their
 * copies in every workload cluster are read now and every READ_EVERY_MS after the last read
 * ended, into the workloads slice as rows; Enter's placement checklist is made from the last
 * read (and follows the next ones). It only reads. Where the control plane is comes from the
 * session (the fleet file's control-plane context, or the kubeconfig the install wrote): the
 * dashboard binds it.
 */
import type { PlacementRead } from '../kube/nova/placement-read.js';
import { explainWorkload } from '../placement/explain.js';
import { workloadRowsInTurns } from '../placement/rows.js';
import type { Session } from '../session/session.js';
import { type FleetStore, updateSlice } from '../store/fleet-store.js';
import { type WorkloadsSlice, workloadKey } from '../store/workloads.js';
import { type FeedFactory, heldSession } from './feed.js';

export const READ_EVERY_MS = 3_000;

type Read = (session: Session) => Promise<{ context: string; read: PlacementRead }>;

export interface WorkloadsFeedOptions {
  /** One read of the fleet's control plane and workload clusters through the session; throws one line when it has no fleet. */
  read?: Read;
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
const NO_READ = 'the Workloads tab needs a fleet: start fleetdeck on one (fleetdeck install)';

/** Reads while shown; the rows and the open checklist into the slice. */
class WorkloadsPoller {
  shown = false;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private last: PlacementRead | undefined;

  constructor(
    private readonly store: FleetStore,
    private readonly session: Session,
    private readonly read: Read | undefined,
  ) {}

  private update(change: (s: WorkloadsSlice) => WorkloadsSlice): void {
    updateSlice(this.store, 'workloads', change);
  }

  explain(key: string): void {
    const row = this.store.getState().workloads.rows.find((r) => workloadKey(r) === key);
    const ref = row ? { kind: row.kind, namespace: row.namespace ?? undefined, name: row.name } : undefined;
    const found = ref && this.last ? explainWorkload(this.last, ref) : undefined;
    if (!row || !found) return;
    const title = `${row.kind.toLowerCase()}/${row.name}${row.namespace ? ` in ${row.namespace}` : ''}: ${found.row.state}`;
    this.update((s) => ({ ...s, open: { key, title, items: found.items } }));
  }

  private async once(): Promise<void> {
    if (!this.read) return this.update((s) => ({ ...s, status: 'on', source: { error: NO_READ } }));
    this.update((s) => ({ ...s, reading: true }));
    try {
      const { context, read } = await this.read(this.session);
      this.last = read;
      const unread = read.copies.filter((c) => c.error).map((c) => `${c.clusterName} (${c.context}): ${c.error}`);
      const rows = await workloadRowsInTurns(read);
      this.update((s) => ({ ...s, status: 'on', source: { context }, rows, at: Date.now(), reading: false, error: undefined, unread }));
      const open = this.store.getState().workloads.open;
      if (open) this.explain(open.key);
    } catch (err) {
      const why = firstLine(err);
      const known = (s: WorkloadsSlice) => s.source && 'context' in s.source;
      this.update((s) => ({ ...s, status: 'on', reading: false, ...(known(s) ? { error: why } : { source: { error: why } }) }));
    }
  }

  /** Reads now (unless a read is under way), then again while shown. */
  now(): void {
    this.cancel();
    this.reading ??= this.once().finally(() => {
      this.reading = undefined;
      if (this.shown) this.timer = setTimeout(() => this.now(), READ_EVERY_MS);
    });
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  async stop(): Promise<void> {
    this.shown = false;
    this.cancel();
    await this.reading;
  }
}

export function workloadsFeed(o: WorkloadsFeedOptions = {}): FeedFactory {
  return ({ store }) =>
    heldSession('workloads', (session) => {
      const poller = new WorkloadsPoller(store, session, o.read);
      return {
        actions: {
          show: () => {
            if (store.getState().workloads.status === 'off') updateSlice(store, 'workloads', (s) => ({ ...s, status: 'loading' }));
            poller.shown = true;
            poller.now();
          },
          hide: () => {
            poller.shown = false;
            poller.cancel();
          },
          refresh: () => poller.now(),
          explain: (key) => poller.explain(key),
          close: () => updateSlice(store, 'workloads', (s) => ({ ...s, open: undefined })),
        },
        // What was read came through the old session: read again through the new one.
        restart: () => {
          if (poller.shown) poller.now();
        },
        stop: () => poller.stop(),
      };
    });
}

/**
 * The Approvals panel's feed: while the panel is open, a watch of its context's
 * CertificateSigningRequests (with their warnings) into the approvals slice; approve and deny
 * through the approval subresource, their answer as one line.
 */
import type { CsrSummary } from '../kube/csr/index.js';
import type { ApprovalActions } from '../store/actions.js';
import {
  approvalsClosed,
  approvalsOpened,
  csrsChanged,
  csrsFailed,
  decisionDone,
  decisionStarted,
  type ApprovalsSlice,
} from '../store/approvals.js';
import type { Session } from '../session/session.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { type FeedFactory, type HeldActions, heldSession } from './feed.js';
import { lazyFeed } from './lazy.js';

/** What the feed calls, by context name (src/feeds/approvals-work.ts binds it to the session; tests pass fakes). */
export interface ApprovalsWork {
  /** Watch the context's CSRs: `onChange` gets every CSR after each change. Returns what stops the watch. */
  watch: (context: string, onChange: (csrs: CsrSummary[]) => void, onError: (message: string) => void) => () => void;
  /** Approve or deny a CSR; resolves with one line saying what happened (a refusal included). */
  decide: (context: string, name: string, decision: 'Approved' | 'Denied') => Promise<string>;
}

export function startApprovalsFeed(store: FleetStore, work: ApprovalsWork): HeldActions<'approvals'> {
  const update = (change: (s: ApprovalsSlice) => ApprovalsSlice) => updateSlice(store, 'approvals', change);
  let stopWatch: (() => void) | undefined;

  const watch = (context: string) => {
    stopWatch?.();
    stopWatch = undefined;
    try {
      stopWatch = work.watch(
        context,
        (csrs) => update((s) => csrsChanged(s, context, csrs)),
        (error) => update((s) => csrsFailed(s, context, error)),
      );
    } catch (err) {
      // A context the session no longer has (the kubeconfig changed under the open panel).
      update((s) => csrsFailed(s, context, err instanceof Error ? err.message : String(err)));
    }
  };
  const decide = (name: string, decision: 'Approved' | 'Denied') => {
    const context = store.getState().approvals.context;
    if (context === undefined) return;
    update((s) => decisionStarted(s, name));
    work.decide(context, name, decision).then(
      (line) => update((s) => decisionDone(s, line)),
      (err: unknown) => update((s) => decisionDone(s, `${name}: ${err instanceof Error ? err.message : String(err)}`)),
    );
  };

  return {
    open(context) {
      update((s) => approvalsOpened(s, context));
      watch(context);
    },
    close() {
      stopWatch?.();
      stopWatch = undefined;
      update(approvalsClosed);
    },
    approve: (name) => decide(name, 'Approved'),
    deny: (name) => decide(name, 'Denied'),
    /** Watch the open context again (the session changed: new KubeConfigs). */
    restart() {
      const context = store.getState().approvals.context;
      if (context !== undefined) watch(context);
    },
    stop() {
      stopWatch?.();
      stopWatch = undefined;
    },
  };
}

export interface ApprovalsFeedOptions {
  /** The calls bound to a session (default: approvals-work.ts, loaded when the panel first opens). */
  work?: (session: Session) => ApprovalsWork | Promise<ApprovalsWork>;
}

const realApprovalsWork = async (session: Session): Promise<ApprovalsWork> => (await import('./approvals-work.js')).approvalsWork(session);

/** The Approvals panel's feed: loaded when the panel first opens, watching its context while open. */
export function approvalsFeed(o: ApprovalsFeedOptions = {}): FeedFactory {
  return ({ store }) =>
    heldSession('approvals', (session) => {
      const load = lazyFeed(
        async () => startApprovalsFeed(store, await (o.work ?? realApprovalsWork)(session)),
        (status) => updateSlice(store, 'approvals', (s) => ({ ...s, status })),
        { retry: true },
      );
      const actions: ApprovalActions = {
        open(context) {
          updateSlice(store, 'approvals', (s) => ({ status: s.status, context }));
          load.start().then(
            (feed) => {
              if (store.getState().approvals.context === context) feed.open(context);
            },
            () => {},
          );
        },
        close() {
          const feed = load.current();
          if (feed) feed.close();
          else updateSlice(store, 'approvals', (s) => ({ status: s.status }));
        },
        approve: (name) => load.current()?.approve(name),
        deny: (name) => load.current()?.deny(name),
      };
      return { actions, restart: () => load.current()?.restart(), stop: () => load.current()?.stop() };
    });
}

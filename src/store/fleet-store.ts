import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import type { ContextInfo } from '../kube/config/kubeconfig.js';
import { emptyApprovals, type ApprovalsSlice } from './approvals.js';
import { emptyCerts, type CertsSlice } from './certs.js';
import { emptyDay2, type Day2Slice } from './day2.js';
import { emptyInstall, type InstallSlice } from './install.js';
import { emptyLogs, type LogsSlice } from './logs.js';
import { emptyPrepare, type PrepareSlice } from './prepare.js';
import { emptyRollouts, type RolloutsSlice } from './rollouts.js';
import { emptyStorage, type StorageSlice } from './storage.js';
import { emptyWorkloads, type WorkloadsSlice } from './workloads.js';
import { statusOf, type StatusSlice } from './status.js';

/** One slice per tab and view besides Status; each written by its feed only. */
export interface TabSlices {
  rollouts: RolloutsSlice;
  storage: StorageSlice;
  approvals: ApprovalsSlice;
  /** The Status screen's Certificates view. */
  certs: CertsSlice;
  prepare: PrepareSlice;
  install: InstallSlice;
  /** The Install tab's Day 2 page. */
  day2: Day2Slice;
  /** The log view (opened over any tab). */
  logs: LogsSlice;
  workloads: WorkloadsSlice;
}

export function emptyTabSlices(): TabSlices {
  return {
    rollouts: emptyRollouts(),
    storage: emptyStorage(),
    approvals: emptyApprovals(),
    certs: emptyCerts(),
    prepare: emptyPrepare(),
    install: emptyInstall(),
    day2: emptyDay2(),
    logs: emptyLogs(),
    workloads: emptyWorkloads(),
  };
}

export interface FleetState extends TabSlices {
  status: StatusSlice;
  /** The fleet being watched, when one is defined (config file or flags). */
  fleet?: FleetConfig;
  /** The kubeconfig files the contexts come from, when they changed after start (the sandbox). */
  kubeconfigFiles?: string[];
  /** A one-line message about fleetdeck itself (e.g. "starting the sandbox…"), shown above the key hints. */
  banner?: Banner;
}

export interface Banner {
  kind: 'info' | 'progress' | 'error';
  text: string;
}

export type FleetStore = StoreApi<FleetState>;

/** `warnDays`: --warn-days, the residual time under which the Certificates view and the status row flag a certificate. */
export function createFleetStore(contexts: ContextInfo[] = [], fleet?: FleetConfig, warnDays?: number): FleetStore {
  return createStore<FleetState>()(() => ({
    status: statusOf(contexts),
    ...(fleet ? { fleet } : {}),
    ...emptyTabSlices(),
    ...(warnDays !== undefined ? { certs: emptyCerts(warnDays) } : {}),
  }));
}

/** Replace one tab's slice with `change` of it (its feed's only way in). */
export function updateSlice<K extends keyof TabSlices>(store: FleetStore, key: K, change: (slice: TabSlices[K]) => TabSlices[K]): void {
  store.setState((s) => {
    const next = change(s[key]);
    return next === s[key] ? s : ({ [key]: next } as Pick<TabSlices, K>);
  });
}

/** Replace the set of contexts (e.g. after the sandbox started and wrote its kubeconfig). */
export function setContexts(store: FleetStore, contexts: ContextInfo[], fleet?: FleetConfig, kubeconfigFiles?: string[]): void {
  store.setState((s) => ({
    status: statusOf(contexts, s.status.contexts, s.status.revision + 1),
    fleet,
    ...(kubeconfigFiles ? { kubeconfigFiles } : {}),
  }));
}

/**
 * Shows `banner` on the bottom line until another replaces it; with `forMs`, a notice that clears
 * itself after that long (unless another banner replaced it meanwhile).
 */
export function setBanner(store: FleetStore, banner: Banner | undefined, forMs?: number): void {
  store.setState({ banner });
  if (!banner || forMs === undefined) return;
  setTimeout(() => {
    if (store.getState().banner === banner) store.setState({ banner: undefined });
  }, forMs).unref();
}

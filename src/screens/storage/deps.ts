import type { Catalogue } from '../../storage/catalogue.js';
import type { ClusterStorage } from '../../storage/inventory.js';

/**
 * The Storage tab's link to the clusters and the catalogue. The dashboard builds it (loaded when
 * the tab is first shown) from src/kube/storage.ts, src/storage/local.ts and
 * src/storage/catalogue.ts; tests pass fakes.
 */
export interface StorageDeps {
  /** The contexts offered, in display order (read each time: a sandbox started later adds its own). */
  contexts: string[];
  /** The storage of a context's nodes and cluster, as `fleetdeck storage estimate --context` reads it. */
  inventory(context: string): Promise<ClusterStorage>;
  /**
   * The catalogue of planned volumes: the default one, or the one in `file`. Throws with one line
   * when a file cannot be used.
   */
  catalogue(file?: string): Catalogue;
  /** More catalogue files the dialogue offers (key c cycles through them), e.g. the shipped example. */
  catalogueFiles?: string[];
  /** This host's disks and volume groups (lsblk, vgs), offered after the contexts. Absent: not offered. */
  local?: () => Promise<ClusterStorage>;
}

/** What the tab shows storage for: a context of the dashboard, or the host fleetdeck runs on. */
export type StorageTarget = { kind: 'context'; name: string } | { kind: 'local' };

/** The targets in ←/→ order: the contexts, then this host when offered. */
export function storageTargets(deps: Pick<StorageDeps, 'contexts' | 'local'>): StorageTarget[] {
  const out: StorageTarget[] = deps.contexts.map((name) => ({ kind: 'context', name }));
  if (deps.local) out.push({ kind: 'local' });
  return out;
}

/** A key that tells the targets apart (a context may be called anything, "local" included). */
export function targetKey(t: StorageTarget): string {
  return t.kind === 'local' ? 'local:' : `context:${t.name}`;
}

export function targetLabel(t: StorageTarget): string {
  return t.kind === 'local' ? 'this host' : t.name;
}

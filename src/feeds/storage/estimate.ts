/**
 * The estimate dialogue in the feed: the operator's intents go through the model
 * (estimate-model.ts) into the slice, each target's dialogue kept when it closes; `c` finds the
 * next catalogue that could be read; an inventory read again is weighed against at once.
 */
import type { EstimateIntent, EstimateState } from '../../store/storage-estimate.js';
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import { catalogueKey, estimateRefusal, targetKey, type StorageSlice, type StorageTarget } from '../../store/storage.js';
import type { StorageEstimateActions } from '../../store/actions.js';
import { confirms, deriveEstimate, type EstimateAction, type EstimateGround, estimateReducer, initialEstimate } from './estimate-model.js';

export class StorageEstimate implements StorageEstimateActions {
  constructor(private readonly store: FleetStore) {}

  private get slice(): StorageSlice {
    return this.store.getState().storage;
  }

  private update(change: (s: StorageSlice) => StorageSlice): void {
    updateSlice(this.store, 'storage', change);
  }

  private set(key: string, state: EstimateState): void {
    this.update((s) => ({ ...s, estimates: { ...s.estimates, [key]: state } }));
  }

  /** What the choices of a target are weighed against: its inventory as read, with the pools chosen for it. */
  private ground(key: string): EstimateGround | undefined {
    const entry = this.slice.inventories[key];
    return entry?.storage && entry.defaults ? { storage: entry.storage, defaults: entry.defaults } : undefined;
  }

  /** Open the dialogue of a target: as it was left, else on the default catalogue. Nothing while it cannot (estimateRefusal). */
  open(target: StorageTarget): void {
    const key = targetKey(target);
    const ground = this.ground(key);
    const c = this.slice.catalogues[catalogueKey(undefined)];
    if (estimateRefusal(this.slice, key) || !ground) return;
    if (!this.slice.estimates[key] && c && 'catalogue' in c) this.set(key, initialEstimate(c.catalogue, ground));
    this.update((s) => ({ ...s, open: target }));
  }

  close(): void {
    this.update((s) => {
      const { open: _closed, ...rest } = s;
      return rest;
    });
  }

  send(intent: EstimateIntent): void {
    const key = this.slice.open ? targetKey(this.slice.open) : undefined;
    const state = key ? this.slice.estimates[key] : undefined;
    const ground = key ? this.ground(key) : undefined;
    if (!key || !state || !ground) return;
    const action = intent.type === 'catalogue' ? this.nextCatalogue(state) : intent;
    if (!action) return;
    this.set(key, estimateReducer(state, action, ground));
    // Enter on the last size, every size accepted: the choices are confirmed, the dialogue closes.
    if (intent.type === 'next' && confirms(state)) this.close();
  }

  /** The inventory of a target was read (again): its dialogue, if any, is weighed against it. */
  reread(key: string): void {
    const state = this.slice.estimates[key];
    const ground = this.ground(key);
    if (state && ground) this.set(key, deriveEstimate(state.form, state.catalogue, ground));
  }

  /** The next catalogue offered that could be read; past those that could not (the first one's line is said). */
  private nextCatalogue(state: EstimateState): EstimateAction | undefined {
    const { catalogueFiles: files, catalogues } = this.slice;
    const at = files.indexOf(state.form.catalogueFile);
    let problem: string | undefined;
    for (let i = 1; i < files.length; i++) {
      const file = files[(at + i) % files.length];
      const loaded = catalogues[catalogueKey(file)];
      if (loaded && 'catalogue' in loaded) return { type: 'catalogue', catalogue: loaded.catalogue, file, problem };
      problem ??= loaded?.error ?? 'the catalogue is still being read';
    }
    return problem ? { type: 'problem', error: problem } : undefined;
  }
}

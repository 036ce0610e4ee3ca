/**
 * The estimate dialogue's model: each intent of the operator (and each answer of the feed: a
 * catalogue chosen, an inventory read again) turned into the next state, with what follows from
 * the choices worked out — the pages' rows, the sizes not accepted, the estimate and its
 * verdict. Pure; the feed's dialogue (estimate.ts) is its only caller.
 */
import type { Catalogue, CatalogueVolume } from '../../storage/catalogue.js';
import { estimate, type Pools } from '../../storage/estimate.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import {
  ESTIMATE_PAGES,
  type EstimateForm,
  type EstimateIntent,
  type EstimateState,
  type FeatureRow,
  type PoolDefaults,
  type RejectedSize,
} from '../../store/storage-estimate.js';
import { formFor, sizeEdit, sizeText } from './estimate-form.js';

/** The intents, with the catalogue the feed found for `catalogue` (and why it passed others over), and its one-line problems. */
export type EstimateAction =
  | Exclude<EstimateIntent, { type: 'catalogue' }>
  | { type: 'catalogue'; catalogue: Catalogue; file?: string | undefined; problem?: string | undefined }
  | { type: 'problem'; error: string };

/** What the choices are weighed against: the target's inventory and the pools chosen for it. */
export interface EstimateGround {
  storage: ClusterStorage;
  defaults: PoolDefaults;
}

/** The volumes of the enabled features (every feature's when `features` is not given), each once, in catalogue order. */
export function enabledVolumes(catalogue: Catalogue, features?: readonly string[]): CatalogueVolume[] {
  const seen = new Map<string, CatalogueVolume>();
  for (const f of catalogue.features) {
    if (features && !features.includes(f.name)) continue;
    for (const c of f.components) for (const v of c.volumes) if (!seen.has(v.name)) seen.set(v.name, v);
  }
  return [...seen.values()];
}

/** The pools ←/→ walk through: every volume group of the nodes, by name, once. */
export function poolOptions(storage: ClusterStorage): string[] {
  const names: string[] = [];
  for (const n of storage.nodes) for (const vg of n.volumeGroups) if (!names.includes(vg.name)) names.push(vg.name);
  return names.sort();
}

function featureRows(catalogue: Catalogue, form: EstimateForm): FeatureRow[] {
  return catalogue.features.map((f) => {
    const volumes = enabledVolumes(catalogue, [f.name]);
    const gb = (kind: CatalogueVolume['kind']) =>
      volumes.filter((v) => v.kind === kind).reduce((a, v) => a + (form.sizes[v.name] ?? v.defaultGB), 0);
    return {
      name: f.name,
      label: f.label,
      on: form.features.includes(f.name),
      volumes: volumes.length,
      shared: gb('shared'),
      unshared: gb('unshared'),
    };
  });
}

function rejectedSizes(form: EstimateForm, volumes: readonly CatalogueVolume[]): RejectedSize[] {
  return volumes.flatMap((v) => {
    const text = form.typed[v.name];
    const parsed = text === undefined ? undefined : sizeText(text);
    return parsed && 'error' in parsed ? [{ volume: v.name, label: v.label, error: parsed.error }] : [];
  });
}

function estimated(catalogue: Catalogue, form: EstimateForm, volumes: readonly CatalogueVolume[], storage: ClusterStorage) {
  const sizes: Record<string, number> = {};
  for (const v of volumes) sizes[v.name] = form.sizes[v.name] ?? v.defaultGB;
  try {
    return { estimate: estimate(catalogue, storage, { features: [...form.features], sizes, pools: { ...form.pools } }) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The dialogue's state for these choices: every page's rows, the sizes not accepted, the estimate. */
export function deriveEstimate(form: EstimateForm, catalogue: Catalogue, ground: EstimateGround): EstimateState {
  const volumes = enabledVolumes(catalogue, form.features);
  return {
    form,
    catalogue,
    features: featureRows(catalogue, form),
    volumes,
    options: poolOptions(ground.storage),
    defaults: ground.defaults,
    rejected: rejectedSizes(form, volumes),
    result: estimated(catalogue, form, volumes, ground.storage),
  };
}

/** A new dialogue on `catalogue`: its default features and sizes, the pools chosen for the inventory. */
export function initialEstimate(catalogue: Catalogue, ground: EstimateGround, file?: string): EstimateState {
  return deriveEstimate(formFor(catalogue, enabledVolumes(catalogue), ground.defaults.pools, file), catalogue, ground);
}

/** Rows of the page shown (the focus stays among them). */
function rowCount(s: EstimateState): number {
  return s.form.page === 'features' ? s.catalogue.features.length : s.form.page === 'pools' ? 2 : s.volumes.length;
}

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));
const focused = (s: EstimateState) => clamp(s.form.focus, rowCount(s));

/** Enter on the sizes page confirms the choices: on the last field, every size accepted. */
export function confirms(s: EstimateState): boolean {
  return s.form.page === 'sizes' && s.form.focus >= s.volumes.length - 1 && s.rejected.length === 0;
}

function turn(form: EstimateForm, delta: 1 | -1): EstimateForm {
  const page = ESTIMATE_PAGES[ESTIMATE_PAGES.indexOf(form.page) + delta];
  return page ? { ...form, page, focus: 0, fresh: true } : form;
}

function next(s: EstimateState): EstimateForm {
  const { form } = s;
  if (form.page !== 'sizes') return turn(form, 1);
  if (confirms(s)) return { ...form, done: true };
  if (form.focus < s.volumes.length - 1) return { ...form, focus: form.focus + 1, fresh: true };
  // On the last field with a size not accepted: to that field.
  const at = s.volumes.findIndex((v) => v.name === s.rejected[0]?.volume);
  return { ...form, focus: Math.max(0, at), fresh: true };
}

/** The focused pool's next (or previous) volume group; picking the other kind's group swaps the two. */
function pool(s: EstimateState, delta: 1 | -1): EstimateForm {
  const { form, options } = s;
  const n = options.length;
  if (n === 0) return form;
  const which: keyof Pools = focused(s) === 0 ? 'shared' : 'unshared';
  const at = options.indexOf(form.pools[which] ?? '');
  const chosen = options[(((at < 0 ? 0 : at + delta) % n) + n) % n]!;
  const other: keyof Pools = which === 'shared' ? 'unshared' : 'shared';
  const pools: Pools = { ...form.pools, [which]: chosen };
  if (form.pools[other] === chosen) {
    const previous = form.pools[which];
    if (previous === undefined) delete pools[other];
    else pools[other] = previous;
  }
  return { ...form, done: false, pools };
}

function toggle(s: EstimateState): EstimateForm {
  const { form } = s;
  const feature = s.catalogue.features[focused(s)];
  if (!feature || form.page !== 'features') return form;
  const on = form.features.includes(feature.name);
  return { ...form, done: false, features: on ? form.features.filter((f) => f !== feature.name) : [...form.features, feature.name] };
}

function formAfter(s: EstimateState, action: Exclude<EstimateAction, { type: 'catalogue' | 'problem' }>): EstimateForm {
  switch (action.type) {
    case 'next':
      return next(s);
    case 'back':
      return turn(s.form, -1);
    case 'focus':
      return { ...s.form, focus: clamp(focused(s) + action.delta, rowCount(s)), fresh: true };
    case 'toggle':
      return toggle(s);
    case 'pool':
      return s.form.page === 'pools' ? pool(s, action.delta) : s.form;
    default: {
      const volume = s.form.page === 'sizes' ? s.volumes[focused(s)] : undefined;
      return volume ? sizeEdit(s.form, volume.name, action) : s.form;
    }
  }
}

export function estimateReducer(s: EstimateState, action: EstimateAction, ground: EstimateGround): EstimateState {
  if (action.type === 'problem') return { ...s, error: action.error };
  if (action.type === 'catalogue') {
    const form = formFor(action.catalogue, enabledVolumes(action.catalogue), s.form.pools, action.file);
    const next = deriveEstimate(form, action.catalogue, ground);
    return action.problem ? { ...next, error: action.problem } : next;
  }
  return deriveEstimate(formAfter(s, action), s.catalogue, ground);
}

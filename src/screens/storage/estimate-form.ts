import type { Catalogue, CatalogueVolume } from '../../storage/catalogue.js';
import type { Pools } from '../../storage/estimate.js';
import type { ClusterStorage } from '../../storage/inventory.js';

/** The dialogue's pages, in the seed's order: features, the pools, the size of each volume. */
export const FORM_PAGES = ['features', 'pools', 'sizes'] as const;
export type FormPage = (typeof FORM_PAGES)[number];

/** What the operator chose in the estimate dialogue of one context; kept when the dialogue closes. */
export interface EstimateForm {
  page: FormPage;
  /** The catalogue file; undefined: the default catalogue. */
  catalogueFile?: string;
  /** Enabled features, by name. */
  features: string[];
  pools: Pools;
  /** The text in each size field, by volume name (the default, pre-filled, until typed over). */
  typed: Record<string, string>;
  /** The accepted size of each volume, by name, in GB: the last valid text. */
  sizes: Record<string, number>;
  /** The focused row of the page. */
  focus: number;
  /** The size field was just reached: the first key typed replaces its text. */
  fresh: boolean;
  /** The choices were confirmed (enter on the last size). */
  done: boolean;
}

export type FormAction =
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'focus'; delta: number; count: number }
  | { type: 'toggleFeature'; name: string }
  | { type: 'pool'; which: keyof Pools; options: readonly string[]; delta: 1 | -1 }
  | { type: 'type'; volume: string; text: string }
  | { type: 'backspace'; volume: string }
  | { type: 'clear'; volume: string }
  | { type: 'catalogue'; catalogue: Catalogue; file?: string | undefined }
  | { type: 'done' };

/** The volumes of the enabled features (every feature's when `features` is not given), each once, in catalogue order. */
export function enabledVolumes(catalogue: Catalogue, features?: readonly string[]): CatalogueVolume[] {
  const seen = new Map<string, CatalogueVolume>();
  for (const f of catalogue.features) {
    if (features && !features.includes(f.name)) continue;
    for (const c of f.components) for (const v of c.volumes) if (!seen.has(v.name)) seen.set(v.name, v);
  }
  return [...seen.values()];
}

/** Sizes are whole or decimal GB above 0, at most a petabyte. */
const SIZE = /^\d+(\.\d+)?$/;
const MAX_GB = 1_000_000;

/** A typed size, or why it is not accepted (one line). */
export function parseSize(text: string): { gb: number } | { error: string } {
  const t = text.trim();
  if (t === '') return { error: 'type a number of GB' };
  if (!SIZE.test(t)) return { error: `"${t}" is not a number of GB above 0` };
  const gb = Number(t);
  if (gb <= 0) return { error: `"${t}" is not a number of GB above 0` };
  if (gb > MAX_GB) return { error: `"${t}" GB is more than a petabyte` };
  return { gb };
}

/** The first size field (of the enabled volumes) whose text is not accepted. */
export function firstInvalid(
  form: EstimateForm,
  volumes: readonly { name: string; label: string }[],
): { volume: string; label: string; text: string; error: string } | undefined {
  for (const v of volumes) {
    const text = form.typed[v.name];
    if (text === undefined) continue;
    const parsed = parseSize(text);
    if ('error' in parsed) return { volume: v.name, label: v.label, text, error: parsed.error };
  }
  return undefined;
}

/** The pools ←/→ walk through: every volume group of the nodes, by name, once. */
export function poolOptions(storage: ClusterStorage): string[] {
  const names: string[] = [];
  for (const n of storage.nodes) for (const vg of n.volumeGroups) if (!names.includes(vg.name)) names.push(vg.name);
  return names.sort();
}

/** The estimate's input: the enabled features, the accepted size of each of their volumes, the pools. */
export function estimateInput(
  form: EstimateForm,
  catalogue: Catalogue,
): { features: string[]; sizes: Record<string, number>; pools: Pools } {
  const sizes: Record<string, number> = {};
  for (const v of enabledVolumes(catalogue, form.features)) sizes[v.name] = form.sizes[v.name] ?? v.defaultGB;
  return { features: [...form.features], sizes, pools: { ...form.pools } };
}

function defaults(catalogue: Catalogue): Pick<EstimateForm, 'features' | 'typed' | 'sizes'> {
  const sizes: Record<string, number> = {};
  const typed: Record<string, string> = {};
  for (const v of enabledVolumes(catalogue)) {
    sizes[v.name] = v.defaultGB;
    typed[v.name] = String(v.defaultGB);
  }
  return { features: catalogue.features.filter((f) => f.default).map((f) => f.name), typed, sizes };
}

/** A new dialogue: the catalogue's default features and sizes, the pools `defaultPools` chose. */
export function initialForm(catalogue: Catalogue, pools: Pools, catalogueFile?: string): EstimateForm {
  return {
    page: 'features',
    ...(catalogueFile ? { catalogueFile } : {}),
    ...defaults(catalogue),
    pools: { ...pools },
    focus: 0,
    fresh: true,
    done: false,
  };
}

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));

function setText(form: EstimateForm, volume: string, text: string): EstimateForm {
  const parsed = parseSize(text);
  return {
    ...form,
    fresh: false,
    typed: { ...form.typed, [volume]: text },
    sizes: 'gb' in parsed ? { ...form.sizes, [volume]: parsed.gb } : form.sizes,
  };
}

export function formReducer(form: EstimateForm, action: FormAction): EstimateForm {
  switch (action.type) {
    case 'next': {
      const at = FORM_PAGES.indexOf(form.page);
      const page = FORM_PAGES[at + 1];
      return page ? { ...form, page, focus: 0, fresh: true } : form;
    }
    case 'back': {
      const at = FORM_PAGES.indexOf(form.page);
      const page = FORM_PAGES[at - 1];
      return page ? { ...form, page, focus: 0, fresh: true } : form;
    }
    case 'focus':
      return { ...form, focus: clamp(clamp(form.focus, action.count) + action.delta, action.count), fresh: true };
    case 'toggleFeature': {
      const on = form.features.includes(action.name);
      return { ...form, done: false, features: on ? form.features.filter((f) => f !== action.name) : [...form.features, action.name] };
    }
    case 'pool': {
      // Cycle through the volume groups; picking the other kind's group swaps the two.
      const n = action.options.length;
      if (n === 0) return form;
      const at = action.options.indexOf(form.pools[action.which] ?? '');
      const next = action.options[(((at < 0 ? 0 : at + action.delta) % n) + n) % n]!;
      const other: keyof Pools = action.which === 'shared' ? 'unshared' : 'shared';
      const pools: Pools = { ...form.pools, [action.which]: next };
      if (form.pools[other] === next) {
        const previous = form.pools[action.which];
        if (previous === undefined) delete pools[other];
        else pools[other] = previous;
      }
      return { ...form, done: false, pools };
    }
    case 'type': {
      const before = form.fresh ? '' : (form.typed[action.volume] ?? '');
      return { ...setText(form, action.volume, before + action.text), done: false };
    }
    case 'backspace':
      return { ...setText(form, action.volume, [...(form.typed[action.volume] ?? '')].slice(0, -1).join('')), done: false };
    case 'clear':
      return { ...setText(form, action.volume, ''), done: false };
    case 'catalogue': {
      const { catalogueFile: _previous, ...rest } = form;
      return {
        ...rest,
        ...defaults(action.catalogue),
        ...(action.file ? { catalogueFile: action.file } : {}),
        focus: 0,
        fresh: true,
        done: false,
      };
    }
    case 'done':
      return { ...form, done: true };
  }
}

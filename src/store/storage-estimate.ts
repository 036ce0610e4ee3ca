/**
 * The Storage tab's estimate dialogue as the screen shows it: per target, what the operator
 * chose page by page (kept while fleetdeck runs), and what follows from it — the rows of each
 * page, the sizes not accepted, the estimate and its verdict. Its model runs in the storage
 * feed (src/feeds/storage/estimate-model.ts); the screen draws this and sends the intents.
 */
import type { Catalogue, CatalogueVolume } from '../storage/catalogue.js';
import type { Estimate, Pools } from '../storage/estimate.js';

/** The dialogue's pages, in the seed's order: features, the pools, the size of each volume. */
export const ESTIMATE_PAGES = ['features', 'pools', 'sizes'] as const;
export type EstimatePage = (typeof ESTIMATE_PAGES)[number];

/** What the operator chose in the dialogue of one target. */
export interface EstimateForm {
  page: EstimatePage;
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

/** The pools the feed chose for an inventory, and why ("Using vg_data for unshared volumes (…)"). */
export interface PoolDefaults {
  pools: Pools;
  reason: string;
}

/** A feature as the features page lists it: enabled or not, and what its volumes take at the sizes chosen. */
export interface FeatureRow {
  name: string;
  label: string;
  on: boolean;
  volumes: number;
  /** GB of its shared and unshared volumes. */
  shared: number;
  unshared: number;
}

/** A size field whose text is not accepted. */
export interface RejectedSize {
  volume: string;
  label: string;
  error: string;
}

/** The dialogue of one target: the choices, and what the feed worked out from them. */
export interface EstimateState {
  form: EstimateForm;
  /** The catalogue the choices are made in. */
  catalogue: Catalogue;
  features: FeatureRow[];
  /** The volumes of the enabled features, in catalogue order (the sizes page's fields). */
  volumes: CatalogueVolume[];
  /** The volume groups the pools page offers (every one of the nodes, once). */
  options: string[];
  defaults: PoolDefaults;
  /** The fields whose text is not accepted, in the page's order. */
  rejected: RejectedSize[];
  /** The estimate of the choices, or why there is none (one line). */
  result: { estimate: Estimate } | { error: string };
  /** A one-line problem with the last intent (a catalogue that cannot be read). */
  error?: string;
}

/** What the operator does in the dialogue (the screen sends these). */
export type EstimateIntent =
  /** Enter: the next page; on the sizes page the next field, and on the last one confirm. */
  | { type: 'next' }
  /** Esc: a page back. */
  | { type: 'back' }
  | { type: 'focus'; delta: 1 | -1 }
  /** Enable or disable the focused feature. */
  | { type: 'toggle' }
  /** The focused pool's next or previous volume group. */
  | { type: 'pool'; delta: 1 | -1 }
  /** Text typed into the focused size field. */
  | { type: 'type'; text: string }
  | { type: 'backspace' }
  | { type: 'clear' }
  /** The next catalogue offered. */
  | { type: 'catalogue' };

/** The estimate dialogue's choices: a new form on a catalogue, and the sizes typed into it (pure). */
import type { Catalogue, CatalogueVolume } from '../../storage/catalogue.js';
import type { Pools } from '../../storage/estimate.js';
import type { EstimateForm } from '../../store/storage-estimate.js';

/** Sizes are whole or decimal GB above 0, at most a petabyte. */
const SIZE = /^\d+(\.\d+)?$/;
const MAX_GB = 1_000_000;

/** A typed size, or why it is not accepted (one line). */
export function sizeText(text: string): { gb: number } | { error: string } {
  const t = text.trim();
  if (t === '') return { error: 'type a number of GB' };
  if (!SIZE.test(t)) return { error: `"${t}" is not a number of GB above 0` };
  const gb = Number(t);
  if (gb <= 0) return { error: `"${t}" is not a number of GB above 0` };
  if (gb > MAX_GB) return { error: `"${t}" GB is more than a petabyte` };
  return { gb };
}

/** A new form: the catalogue's default features, every volume's default size pre-filled, these pools. */
export function formFor(catalogue: Catalogue, volumes: readonly CatalogueVolume[], pools: Pools, catalogueFile?: string): EstimateForm {
  const sizes: Record<string, number> = {};
  const typed: Record<string, string> = {};
  for (const v of volumes) {
    sizes[v.name] = v.defaultGB;
    typed[v.name] = String(v.defaultGB);
  }
  return {
    page: 'features',
    ...(catalogueFile ? { catalogueFile } : {}),
    features: catalogue.features.filter((f) => f.default).map((f) => f.name),
    pools: { ...pools },
    typed,
    sizes,
    focus: 0,
    fresh: true,
    done: false,
  };
}

function setText(form: EstimateForm, volume: string, text: string): EstimateForm {
  const parsed = sizeText(text);
  return {
    ...form,
    fresh: false,
    done: false,
    typed: { ...form.typed, [volume]: text },
    sizes: 'gb' in parsed ? { ...form.sizes, [volume]: parsed.gb } : form.sizes,
  };
}

/** A key on a size field: text typed (the first key on a field just reached replaces it), a character erased, the field cleared. */
export function sizeEdit(
  form: EstimateForm,
  volume: string,
  edit: { type: 'type'; text: string } | { type: 'backspace' } | { type: 'clear' },
): EstimateForm {
  const now = form.typed[volume] ?? '';
  switch (edit.type) {
    case 'type':
      return setText(form, volume, (form.fresh ? '' : now) + edit.text);
    case 'backspace':
      return setText(form, volume, [...now].slice(0, -1).join(''));
    case 'clear':
      return setText(form, volume, '');
  }
}

import { describe, expect, it } from 'vitest';
import { formFor, sizeEdit, sizeText } from '../../../src/feeds/storage/estimate-form.js';
import { enabledVolumes } from '../../../src/feeds/storage/estimate-model.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import type { EstimateForm } from '../../../src/store/storage-estimate.js';

describe('the estimate form', () => {
  const catalogue = loadCatalogue(EXAMPLE_CATALOGUE_FILE);

  it('accepts sizes above 0 only', () => {
    expect(sizeText('10')).toEqual({ gb: 10 });
    expect(sizeText(' 2.5 ')).toEqual({ gb: 2.5 });
    for (const bad of ['', '0', '-1', 'abc', '1e3', '1,5']) expect(sizeText(bad)).toHaveProperty('error');
    expect(sizeText('-3')).toEqual({ error: '"-3" is not a number of GB above 0' });
  });

  it('starts on the catalogue’s default features, every volume’s default size pre-filled, the pools given', () => {
    const f = formFor(catalogue, enabledVolumes(catalogue), { shared: 'vg_share', unshared: 'vg_data' });
    expect(f).toMatchObject({ page: 'features', features: ['kloudinsights'], pools: { shared: 'vg_share', unshared: 'vg_data' } });
    expect(f.typed['insights-kafka']).toBe('2');
    expect(f.sizes['manage-database']).toBe(10);
  });

  it('the first key typed on a field replaces the default; further keys append', () => {
    let f: EstimateForm = { ...formFor(catalogue, enabledVolumes(catalogue), { shared: 'vg_share', unshared: 'vg_data' }), page: 'sizes' };
    f = sizeEdit(f, 'insights-kafka', { type: 'type', text: '5' });
    f = sizeEdit(f, 'insights-kafka', { type: 'type', text: '0' });
    expect(f.typed['insights-kafka']).toBe('50');
    expect(f.sizes['insights-kafka']).toBe(50);
    f = sizeEdit(f, 'insights-kafka', { type: 'type', text: 'x' });
    expect(f.sizes['insights-kafka']).toBe(50);
    f = sizeEdit(f, 'insights-kafka', { type: 'backspace' });
    expect(f.typed['insights-kafka']).toBe('50');
    f = sizeEdit(f, 'insights-kafka', { type: 'clear' });
    expect([f.typed['insights-kafka'], f.sizes['insights-kafka']]).toEqual(['', 50]);
  });
});

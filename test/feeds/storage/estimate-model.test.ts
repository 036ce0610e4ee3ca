import { describe, expect, it } from 'vitest';
import {
  confirms,
  type EstimateAction,
  type EstimateGround,
  estimateReducer,
  initialEstimate,
} from '../../../src/feeds/storage/estimate-model.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import { defaultPools } from '../../../src/storage/pools.js';
import type { EstimateState } from '../../../src/store/storage-estimate.js';
import { seedCluster } from '../../helpers/objects/seed-storage.js';

const catalogue = loadCatalogue(EXAMPLE_CATALOGUE_FILE);
const DEFAULT = loadCatalogue(undefined);

function ground(freeC?: number): EstimateGround {
  const storage = seedCluster(freeC);
  return { storage, defaults: defaultPools(storage) };
}

/** The dialogue after these actions, from a new one on the example catalogue and the seed's nodes. */
function reached(actions: EstimateAction[], g = ground()): EstimateState {
  return actions.reduce((s, a) => estimateReducer(s, a, g), initialEstimate(catalogue, g));
}

const required = (s: EstimateState) => ('estimate' in s.result ? s.result.estimate.required : s.result);
const verdict = (s: EstimateState) => ('estimate' in s.result ? s.result.estimate.verdict : s.result.error);
const next: EstimateAction = { type: 'next' };
const down: EstimateAction = { type: 'focus', delta: 1 };
const type = (text: string): EstimateAction => ({ type: 'type', text });

describe('the estimate model', () => {
  it('starts on the catalogue’s defaults and the pools chosen for the inventory, estimated at once', () => {
    const s = initialEstimate(catalogue, ground());
    expect(s.form).toMatchObject({
      page: 'features',
      focus: 0,
      features: ['kloudinsights'],
      pools: { shared: 'vg_share', unshared: 'vg_data' },
    });
    expect(s.features.map((f) => [f.label, f.on, f.volumes, f.shared, f.unshared])).toEqual([
      ['KloudManage', false, 1, 0, 10],
      ['KloudInsights', true, 5, 20, 14],
      ['Kloudhybrid', false, 2, 0, 20],
    ]);
    expect(s.volumes.map((v) => v.name)).toEqual([
      'insights-elasticsearch',
      'insights-state',
      'insights-database',
      'insights-kafka',
      'insights-zookeeper',
    ]);
    expect(s.options).toEqual(['vg_data', 'vg_share']);
    expect(s.defaults.reason).toContain('Using vg_data for unshared volumes');
    expect(required(s)).toEqual({ shared: 20, unshared: 14 });
    expect(verdict(s)).toBe('The configuration looks OK');
  });

  it('walks the pages with enter and esc, the focus kept among the page’s rows', () => {
    expect(reached([down, down, down, down]).form.focus).toBe(2);
    expect(reached([down, { type: 'focus', delta: -1 }, { type: 'focus', delta: -1 }]).form.focus).toBe(0);
    expect(reached([down, next]).form).toMatchObject({ page: 'pools', focus: 0 });
    expect(reached([next, down, down]).form.focus).toBe(1);
    expect(reached([next, next]).form.page).toBe('sizes');
    expect(reached([next, next, { type: 'back' }, { type: 'back' }, { type: 'back' }]).form.page).toBe('features');
  });

  it('a feature toggled on the features page changes the volumes and the totals', () => {
    const hybrid = reached([down, down, { type: 'toggle' }]);
    expect(hybrid.form.features).toEqual(['kloudinsights', 'kloudhybrid']);
    expect(required(hybrid)).toEqual({ shared: 20, unshared: 34 });
    const only = estimateReducer(estimateReducer(hybrid, { type: 'focus', delta: -1 }, ground()), { type: 'toggle' }, ground());
    expect(required(only)).toEqual({ shared: 0, unshared: 20 });
    // Space means nothing on another page.
    expect(reached([next, { type: 'toggle' }]).form.features).toEqual(['kloudinsights']);
  });

  it('a pool changed to the other kind’s volume group swaps the two, and the estimate follows', () => {
    const swapped = reached([next, down, { type: 'pool', delta: 1 }]);
    expect(swapped.form.pools).toEqual({ shared: 'vg_data', unshared: 'vg_share' });
    expect('estimate' in swapped.result && swapped.result.estimate.available).toEqual({ shared: 93, unshared: 0 });
    expect(verdict(swapped)).toContain('Not enough storage');
    expect(reached([next, down, { type: 'pool', delta: 1 }, { type: 'pool', delta: -1 }]).form.pools).toEqual({
      shared: 'vg_share',
      unshared: 'vg_data',
    });
  });

  it('a size not accepted is said and the last valid one counts; enter on the last field goes to it, and confirms once every size is accepted', () => {
    const sizes = reached([next, next, down, down, down, type('5'), type('0')]);
    expect(required(sizes)).toEqual({ shared: 20, unshared: 62 });
    const typed = [{ type: 'backspace' }, { type: 'backspace' }, type('-'), type('3')] as EstimateAction[];
    const wrong = typed.reduce((s, a) => estimateReducer(s, a, ground()), sizes);
    expect(wrong.rejected).toEqual([
      { volume: 'insights-kafka', label: 'Kafka distributed messaging', error: '"-3" is not a number of GB above 0' },
    ]);
    expect(required(wrong)).toEqual({ shared: 20, unshared: 17 });
    const last = estimateReducer(wrong, down, ground());
    expect(confirms(last)).toBe(false);
    const back = estimateReducer(last, next, ground());
    expect(back.form).toMatchObject({ focus: 3, done: false, fresh: true });
    const fixed = estimateReducer(estimateReducer(back, type('4'), ground()), down, ground());
    expect(confirms(fixed)).toBe(true);
    expect(estimateReducer(fixed, next, ground()).form.done).toBe(true);
  });

  it('another catalogue starts on its defaults with the pools kept; a problem is one line until the next intent', () => {
    const s = reached([next, down, { type: 'pool', delta: 1 }, { type: 'back' }, { type: 'catalogue', catalogue: DEFAULT }]);
    expect(s.catalogue.name).toBe('nova-control-plane');
    expect(s.form).toMatchObject({
      page: 'features',
      features: ['nova-control-plane'],
      pools: { shared: 'vg_data', unshared: 'vg_share' },
    });
    expect(s.form.catalogueFile).toBeUndefined();
    const problem = estimateReducer(s, { type: 'problem', error: 'catalogue bad.yaml does not exist' }, ground());
    expect(problem.error).toBe('catalogue bad.yaml does not exist');
    expect(estimateReducer(problem, down, ground()).error).toBeUndefined();
  });

  it('weighs the same choices against an inventory read again: a pool no node has is the one-line error', () => {
    const s = initialEstimate(catalogue, ground());
    const storage = { ...seedCluster(), nodes: seedCluster().nodes.map((n) => ({ ...n, volumeGroups: n.volumeGroups.slice(0, 1) })) };
    const gone = estimateReducer(s, down, { storage, defaults: defaultPools(storage) });
    expect(gone.result).toEqual({ error: 'volume group vg_share (for shared volumes) is on no node (volume groups: vg_data)' });
    expect(gone.options).toEqual(['vg_data']);
  });
});

import { describe, expect, it } from 'vitest';
import { decide } from '../../src/placement/decide.js';
import { placedOn, rescheduledFrom, spreadOf } from '../../src/placement/targets.js';
import { cluster, deployment, policy } from './fixtures.js';

describe('where an object was placed, and where not to place it again', () => {
  it('the target label, else the spread annotation; a broken annotation counts as none', () => {
    expect(placedOn({ 'nova.elotl.co/target-cluster': 'w1' }, {})).toEqual(['w1']);
    const spread = JSON.stringify({
      policy: 'p',
      shares: [
        { cluster: 'w1', replicas: 3 },
        { cluster: 'w2', replicas: 7 },
      ],
    });
    expect(placedOn({}, { 'nova.elotl.co/spread-targets': spread })).toEqual(['w1', 'w2']);
    expect(spreadOf({ 'nova.elotl.co/spread-targets': '{broken' })).toBeUndefined();
    expect(placedOn({}, {})).toEqual([]);
  });

  it('a cluster rescheduled away from counts for the spec it was recorded with only', () => {
    const annotations = { 'nova.elotl.co/rescheduled-from': JSON.stringify({ w1: 'aaa', w2: 'bbb' }) };
    expect(rescheduledFrom({ annotations, specHash: 'aaa' })).toEqual(['w1']);
    expect(rescheduledFrom({ annotations, specHash: 'ccc' })).toEqual([]);
    expect(rescheduledFrom({ annotations: { 'nova.elotl.co/rescheduled-from': 'nope' } })).toEqual([]);
  });

  it('the decision avoids such a cluster even when it runs the workload, and says why', () => {
    const d = decide({ members: [deployment('web', 1, 100)], policy: policy('all'), current: ['a'], avoid: ['a'] }, [
      cluster('a', 2, 4000),
      cluster('b', 1, 1000),
    ]);
    expect(d.targets).toEqual([{ cluster: 'b' }]);
    expect(d.candidates.find((c) => c.cluster === 'a')).toEqual({
      cluster: 'a',
      verdict: 'skipped',
      why: 'its pods stayed Pending there (rescheduled away)',
    });
  });
});

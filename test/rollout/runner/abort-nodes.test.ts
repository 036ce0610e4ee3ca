import { describe, expect, it } from 'vitest';
import { abortDoneText, abortNodes, abortPreviewLines } from '../../../src/rollout/runner/abort-nodes.js';
import { state } from '../../helpers/objects/rollout.js';

const cordoned = { unschedulable: true };
const schedulable = { unschedulable: false };

describe('abortNodes', () => {
  it('uncordons only the nodes the rollout cordoned, did not finish, and that are still cordoned', () => {
    const st = state({}, { 'm-1': 'done', 'm-2': 'draining', 'w-1': 'cordoned', 'w-2': 'failed', 'w-3': 'replacing' });
    for (const n of st.nodes) n.cordonedByUs = n.name !== 'w-3' && n.name !== 'w-4';
    const now = new Map([
      ['m-1', cordoned], // done: not abort's
      ['m-2', cordoned],
      ['w-1', schedulable], // uncordoned by someone since
      ['w-3', cordoned], // cordoned before the rollout took it
      ['w-4', cordoned], // waiting, cordoned by someone else
    ]);
    // w-2 is gone from the cluster.
    expect(abortNodes(st, now)).toEqual({
      uncordon: ['m-2'],
      alreadySchedulable: ['w-1'],
      gone: ['w-2'],
      leftCordoned: [
        { node: 'w-3', reason: 'it was cordoned before the rollout took it' },
        { node: 'w-4', reason: 'cordoned by someone else; the rollout had not reached it' },
      ],
    });
  });

  it('leaves out nodes that are schedulable and were never cordoned by the rollout', () => {
    const st = state({}, {});
    expect(abortNodes(st, new Map(st.nodes.map((n) => [n.name, schedulable])))).toEqual({
      uncordon: [],
      alreadySchedulable: [],
      gone: [],
      leftCordoned: [],
    });
  });
});

describe('what abort says', () => {
  const found = {
    alreadySchedulable: ['w-1'],
    gone: ['w-2'],
    leftCordoned: [{ node: 'w-3', reason: 'it was cordoned before the rollout took it' }],
  };

  it('before: what it would do to each node', () => {
    expect(abortPreviewLines({ uncordon: ['m-2'], ...found })).toEqual([
      'Nodes to uncordon (cordoned by the rollout, not finished): m-2',
      'Already schedulable (cordoned by the rollout, uncordoned since): w-1',
      'No longer in the cluster: w-2',
      'Left cordoned: w-3 (it was cordoned before the rollout took it)',
    ]);
    expect(abortPreviewLines({ uncordon: [], alreadySchedulable: [], gone: [], leftCordoned: [] })).toEqual(['No node to uncordon.']);
  });

  it('after: only what it did, and what it left', () => {
    expect(abortDoneText({ uncordoned: ['m-2'], ...found })).toBe(
      'uncordoned m-2; already schedulable: w-1; no longer in the cluster: w-2; left w-3 cordoned (it was cordoned before the rollout took it)',
    );
    expect(abortDoneText({ uncordoned: [], alreadySchedulable: ['w-1'], gone: [], leftCordoned: [] })).toBe(
      'uncordoned no node; already schedulable: w-1',
    );
  });
});

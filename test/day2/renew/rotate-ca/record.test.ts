import { describe, expect, it } from 'vitest';
import { nextPhase, parseRotation, rotationUnfinished } from '../../../../src/day2/renew/rotate-ca/record.js';

describe('rotation record', () => {
  it('moves bundle → leaves → drop → done', () => {
    expect([nextPhase('bundle'), nextPhase('leaves'), nextPhase('drop')]).toEqual(['leaves', 'drop', 'done']);
  });

  it('parses a record, refuses what is not one, and knows an unfinished one', () => {
    const r = { cas: ['clusterCA'], phase: 'leaves', written: false, startedAt: 'T', stalePods: {}, staleAgents: {} };
    expect(parseRotation(JSON.stringify(r))).toEqual(r);
    expect(parseRotation('{"phase":"secrets","certs":[]}')).toBeUndefined();
    expect(parseRotation('not json')).toBeUndefined();
    expect(parseRotation(undefined)).toBeUndefined();
    expect(rotationUnfinished(parseRotation(JSON.stringify(r)))).toBe(true);
    expect(rotationUnfinished(parseRotation(JSON.stringify({ ...r, phase: 'done' })))).toBe(false);
  });
});

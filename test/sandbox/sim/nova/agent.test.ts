import { describe, expect, it } from 'vitest';
import { agentConditions } from '../../../../src/sandbox/sim/nova/agent.js';

describe('the agent’s Cluster conditions', () => {
  it('reports Ready, Idle and not Standby, keeping transition times while nothing changes', () => {
    const first = agentConditions(undefined, 't1');
    expect(first.map((c) => [c.type, c.status, c.lastTransitionTime, c.lastHeartbeatTime])).toEqual([
      ['Ready', 'True', 't1', 't1'],
      ['Idle', 'True', 't1', 't1'],
      ['Standby', 'False', 't1', 't1'],
    ]);
    const previous = [{ ...first[0]!, status: 'False' }, first[1]!, first[2]!];
    const next = agentConditions(previous, 't2');
    expect(next.map((c) => [c.type, c.lastTransitionTime, c.lastHeartbeatTime])).toEqual([
      ['Ready', 't2', 't2'],
      ['Idle', 't1', 't2'],
      ['Standby', 't1', 't2'],
    ]);
  });
});

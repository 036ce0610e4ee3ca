import { describe, expect, it } from 'vitest';
import { changePrinter } from '../../../src/commands/rollout/lines.js';
import { state } from '../../helpers/objects/rollout.js';

describe('the line printer', () => {
  it('prints one JSON object per change with -o json, and text lines otherwise', () => {
    const lines: string[] = [];
    const json = changePrinter('json', false, { print: (l) => lines.push(l) });
    const a = state();
    json(a);
    const b = structuredClone(a);
    b.phase = 'Running';
    Object.assign(b.nodes[0]!, {
      phase: 'draining',
      total: 4,
      evicted: 1,
      blockingPdb: { namespace: 'shop', name: 'web', disruptionsAllowed: 0 },
    });
    json(b);
    json(structuredClone(b)); // nothing changed: nothing printed
    const objs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objs.map((o) => o.kind)).toEqual(['rollout', 'rollout', 'node']);
    expect(objs[1]).toMatchObject({ rollout: 'r1', phase: 'Running', done: 0, total: 6, message: null });
    expect(objs[2]).toMatchObject({
      rollout: 'r1',
      node: { name: 'm-1', phase: 'draining', total: 4, evicted: 1, blockingPdb: { name: 'web' } },
    });
    const text: string[] = [];
    const plain = changePrinter('text', true, { print: (l) => text.push(l), prefixName: true });
    plain(b);
    expect(text[1]).toMatch(
      /^\d\d:\d\d:\d\d r1 m-1 \(priority 20\): draining 1\/4 pods \. 1 evicted, 0 ignored, 0 failed \. blocked by PodDisruptionBudget shop\/web \(0 disruptions allowed\)$/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { intern, internBytes } from '../../../src/kube/protobuf/intern.js';

const at = (s: string, pad = 3) => {
  const buf = Buffer.concat([Buffer.alloc(pad, 0x7a), Buffer.from(s, 'utf8'), Buffer.alloc(pad, 0x7a)]);
  return [buf, pad, buf.length - pad] as const;
};

describe('strings read from bytes, one copy each', () => {
  it('the same bytes give the same string, wherever they are in the buffer', () => {
    const a = internBytes(...at('fleetdeck-bench', 1));
    const b = internBytes(...at('fleetdeck-bench', 9));
    expect(a).toBe('fleetdeck-bench');
    expect(b).toBe(a);
    expect(intern('fleetdeck-bench')).toBe(a);
  });

  it('UTF-8 beyond ASCII, the empty string, and strings longer than the byte cache', () => {
    expect(internBytes(...at('nœud-ü'))).toBe('nœud-ü');
    expect(internBytes(...at(''))).toBe('');
    const long = 'x'.repeat(300);
    expect(internBytes(...at(long))).toBe(long);
  });

  it('never answers with another string: 20,000 distinct strings (many sharing a slot), read twice', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `node-${i.toString(36)}`);
    expect(new Set(names).size).toBe(20_000);
    for (const round of [1, 2]) {
      for (const n of names) expect(internBytes(...at(n)), `${n} (round ${round})`).toBe(n);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Ring } from '../../src/store/log-ring.js';

describe('Ring', () => {
  it('given room, keeps every item oldest first', () => {
    const r = new Ring<number>(3);
    r.push(1);
    r.push(2);
    expect(r.toArray()).toEqual([1, 2]);
    expect(r.length).toBe(2);
    expect(r.dropped).toBe(0);
  });

  it('when full, drops the oldest and stays at its capacity', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 10; i++) r.push(i);
    expect(r.toArray()).toEqual([8, 9, 10]);
    expect(r.length).toBe(3);
    expect(r.dropped).toBe(7);
    expect(r.at(0)).toBe(8);
    expect(r.at(2)).toBe(10);
    expect(r.at(3)).toBeUndefined();
  });

  it('clears to empty and fills again', () => {
    const r = new Ring<string>(2);
    r.push('a');
    r.push('b');
    r.push('c');
    r.clear();
    expect(r.toArray()).toEqual([]);
    r.push('d');
    expect(r.toArray()).toEqual(['d']);
  });

  it('refuses a capacity below one', () => {
    expect(() => new Ring(0)).toThrow(/capacity/);
  });
});

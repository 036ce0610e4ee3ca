import { describe, expect, it } from 'vitest';
import { ListItemReader, readListBody } from '../../../src/kube/watch/list-items.js';

/** Feeds `text` in pieces of `size` characters; returns the items and the envelope. */
function read(text: string, size: number): { items: unknown[]; envelope: unknown } {
  const items: unknown[] = [];
  const reader = new ListItemReader((json) => items.push(JSON.parse(json)));
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  return { items, envelope: reader.end() };
}

const tricky = [
  { metadata: { name: 'a', annotations: { note: 'braces } ] { [ and "quotes" and \\ backslash \\\\' } }, spec: { x: [1, [2, { y: 3 }]] } },
  { metadata: { name: 'b', labels: { items: '"items":[' } }, status: { message: 'ends with a backslash \\' } },
  { metadata: { name: 'ünï©ødé 🚀' }, spec: {} },
];

describe('ListItemReader', () => {
  const list = {
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '42', continue: 'tok"en' },
    items: tricky,
  };
  const text = JSON.stringify(list);

  it('hands over every item and keeps the list without its items, however the body is cut', () => {
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      const r = read(text, size);
      expect(r.items, `pieces of ${size}`).toEqual(tricky);
      expect(r.envelope, `pieces of ${size}`).toEqual({ ...list, items: [] });
    }
  });

  it('reads items before the metadata and an empty or missing items array', () => {
    const reordered = `{"items":${JSON.stringify(tricky)},"metadata":{"resourceVersion":"7"}}`;
    expect(read(reordered, 5)).toEqual({ items: tricky, envelope: { items: [], metadata: { resourceVersion: '7' } } });
    expect(read('{"kind":"NodeList","items":[]}', 3)).toEqual({ items: [], envelope: { kind: 'NodeList', items: [] } });
    expect(read('{"kind":"NodeList","items":null}', 4)).toEqual({ items: [], envelope: { kind: 'NodeList', items: null } });
  });

  it('does not take a nested array named items for the list', () => {
    const nested = { metadata: { x: { items: [{ a: 1 }] } }, items: [{ b: 2 }] };
    expect(read(JSON.stringify(nested), 3)).toEqual({ items: [{ b: 2 }], envelope: { ...nested, items: [] } });
  });

  it('says so when the body ends early', () => {
    const reader = new ListItemReader(() => {});
    reader.push(text.slice(0, text.length - 5));
    expect(() => reader.end()).toThrow(/ended early/);
  });
});

describe('readListBody', () => {
  const list = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '7' }, items: tricky };
  const text = JSON.stringify(list);
  async function* pieces(size: number) {
    for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
  }

  it('gives the same items and list whether the body is parsed whole or read item by item', async () => {
    for (const limit of [Number.MAX_SAFE_INTEGER, 0, 40, text.length - 1]) {
      const items: unknown[] = [];
      const envelope = await readListBody(pieces(16), (i) => items.push(i), limit);
      expect(items, `limit ${limit}`).toEqual(tricky);
      expect(envelope, `limit ${limit}`).toEqual({ ...list, items: [] });
    }
  });

  it('a list with null items has none; a body cut short is an error either way', async () => {
    const items: unknown[] = [];
    async function* once(s: string) {
      yield s;
    }
    expect(await readListBody(once('{"kind":"PodList","items":null}'), (i) => items.push(i))).toEqual({ kind: 'PodList', items: [] });
    expect(items).toEqual([]);
    await expect(readListBody(once(text.slice(0, -3)), () => {})).rejects.toThrow(SyntaxError);
    await expect(readListBody(once(text.slice(0, -3)), () => {}, 0)).rejects.toThrow(/ended early/);
  });
});

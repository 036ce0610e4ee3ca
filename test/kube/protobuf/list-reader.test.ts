import { describe, expect, it } from 'vitest';
import { ProtoListReader } from '../../../src/kube/protobuf/list-reader.js';
import { encode, listBody } from '../../helpers/objects/protobuf-encode.js';

const items = [encode([[1, 'a']]), encode([[1, 'b'.repeat(300)]]), encode([]), encode([[1, 'ccc']])];

function read(body: Buffer, chunk: number) {
  const got: string[] = [];
  const r = new ProtoListReader((buf, start, end) => got.push(buf.subarray(start, end).toString('hex')));
  for (let i = 0; i < body.length; i += chunk) r.push(body.subarray(i, i + chunk));
  return { got, meta: r.end() };
}

describe('ProtoListReader', () => {
  it('hands over every item and the list metadata, whatever the chunk sizes', () => {
    const body = listBody(items, [
      [2, '42'],
      [3, 'next-token'],
    ]);
    for (const chunk of [1, 2, 3, 7, 64, body.length]) {
      const { got, meta } = read(body, chunk);
      expect(got).toEqual(items.map((i) => i.toString('hex')));
      expect(meta).toEqual({ resourceVersion: '42', continue: 'next-token' });
    }
  });

  it('reads an empty list', () => {
    expect(read(listBody([]), 5)).toEqual({ got: [], meta: { resourceVersion: '42' } });
  });

  it('refuses an answer that is not a Kubernetes protobuf object', () => {
    const r = new ProtoListReader(() => {});
    expect(() => r.push(Buffer.from('{"kind":"PodList"}'))).toThrow(/not a Kubernetes protobuf/);
  });

  it('says so when the body ends before its last item', () => {
    const body = listBody(items);
    const r = new ProtoListReader(() => {});
    r.push(body.subarray(0, body.length - 40));
    expect(() => r.end()).toThrow(/ended before its last item/);
  });

  it('hands over an item as soon as its last byte arrived', () => {
    const body = listBody(items);
    const got: number[] = [];
    const r = new ProtoListReader((_b, s, e) => got.push(e - s));
    const firstEnd = body.indexOf(Buffer.from('a')) + 1;
    r.push(body.subarray(0, firstEnd));
    expect(got).toEqual([items[0]!.length]);
    r.push(body.subarray(firstEnd));
    expect(got).toHaveLength(items.length);
  });
});

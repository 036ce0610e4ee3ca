/** A small protobuf writer for building test messages (fields in the order given). */
export type Field = [number, number | string | boolean | Buffer | Field[]];

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n < 0 ? 2n ** 64n + BigInt(n) : BigInt(n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}

export function encode(fields: Field[]): Buffer {
  const parts: Buffer[] = [];
  for (const [n, v] of fields) {
    if (typeof v === 'number' || typeof v === 'boolean') {
      parts.push(varint(n * 8), varint(typeof v === 'boolean' ? (v ? 1 : 0) : v));
      continue;
    }
    const bytes = typeof v === 'string' ? Buffer.from(v) : Buffer.isBuffer(v) ? v : encode(v);
    parts.push(varint(n * 8 + 2), varint(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

/** A list as the API server sends it: magic, runtime.Unknown{typeMeta, raw: List{metadata, items}}. */
export function listBody(items: Buffer[], meta: Field[] = [[2, '42']]): Buffer {
  const list = encode([[1, meta], ...items.map((i): Field => [2, i])]);
  const unknown = encode([
    [
      1,
      [
        [1, 'v1'],
        [2, 'PodList'],
      ],
    ],
    [2, list],
    [4, 'application/vnd.kubernetes.protobuf'],
  ]);
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), unknown]);
}

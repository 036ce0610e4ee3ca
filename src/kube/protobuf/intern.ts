/**
 * One copy of each string that many objects repeat (a namespace, a node name, a phase, a reason,
 * a label): 50,000 pods decoded from protobuf would otherwise keep 50,000 copies of each, where
 * JSON.parse's own strings are no better. The pool is bounded: past its size it starts again.
 */
const POOL_SIZE = 8192;
const pool = new Map<string, string>();

export function intern(s: string): string {
  const known = pool.get(s);
  if (known !== undefined) return known;
  if (pool.size >= POOL_SIZE) pool.clear();
  pool.set(s, s);
  return s;
}

/**
 * The same, read from UTF-8 bytes: a repeated string is recognised by its bytes (a hash, then a
 * comparison with the copy kept in its slot), with no string decoded and no map lookup. The
 * copies live in one fixed arena (256 KiB), not in a Buffer each. Longer strings go through `intern`.
 */
const SLOTS = 4096;
const MAX_BYTES = 64;
const arena = Buffer.alloc(SLOTS * MAX_BYTES);
const slotLength = new Int16Array(SLOTS).fill(-1);
const slotString: string[] = new Array(SLOTS);

export function internBytes(buf: Buffer, start: number, end: number): string {
  const n = end - start;
  if (n > MAX_BYTES) return intern(buf.toString('utf8', start, end));
  // FNV-1a over the bytes.
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  const slot = (h >>> 0) & (SLOTS - 1);
  const at = slot * MAX_BYTES;
  if (slotLength[slot] === n) {
    let i = 0;
    while (i < n && arena[at + i] === buf[start + i]) i++;
    if (i === n) return slotString[slot]!;
  }
  const s = intern(buf.toString('utf8', start, end));
  buf.copy(arena, at, start, end);
  slotLength[slot] = n;
  slotString[slot] = s;
  return s;
}

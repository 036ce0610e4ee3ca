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

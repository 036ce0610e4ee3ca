/**
 * A Pod in protobuf straight to the pod tracker's entry (its key and state). Most pods of a
 * cluster need no attention: Running with a Ready condition that is True and not being deleted,
 * or Succeeded. For those only the uid, the deletion time's presence, the phase and the
 * conditions' types and statuses are looked at, compared as bytes, with no string made but the
 * uid. Any other pod is decoded whole (decodeSlimPod) and judged by `podState`, as JSON is.
 */
import { healthyState, podEntry, type PodEntry } from '../pods/pods.js';
import { len } from './meta.js';
import { decodeSlimPod } from './pod.js';
import { WireReader } from './wire.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const RUNNING = bytes('Running');
const SUCCEEDED = bytes('Succeeded');
const READY = bytes('Ready');
const TRUE = bytes('True');

/**
 * Whether `buf[a, b)` holds exactly `word`, byte by byte. Not `Buffer.compare`: for words this
 * short its call into C++ costs about 130 ns, the loop about 15 ns, and a pod is ten comparisons.
 */
function equals(buf: Buffer, [a, b]: [number, number], word: Buffer): boolean {
  if (b - a !== word.length) return false;
  for (let i = 0; i < word.length; i++) if (buf[a + i] !== word[i]) return false;
  return true;
}

export function decodePodEntry(buf: Buffer, start = 0, end = buf.length): PodEntry {
  return quickEntry(buf, start, end) ?? podEntry(decodeSlimPod(buf, start, end));
}

/**
 * The entry of a pod that needs no attention, or undefined when the pod must be read whole. Its
 * status is looked at first: a pod that needs attention costs no string.
 */
function quickEntry(buf: Buffer, start: number, end: number): PodEntry | undefined {
  const r = new WireReader(buf, start, end);
  let meta: WireReader | undefined;
  let status: WireReader | undefined;
  while (!r.done) {
    const t = r.varint();
    if (t === len(1)) meta = r.message();
    else if (t === len(3)) status = r.message();
    else r.skip(t & 7);
  }
  if (!meta || !status) return undefined;
  let phase: 'Running' | 'Succeeded' | undefined;
  let ready = false;
  while (!status.done) {
    const f = status.varint();
    if (f === len(1)) {
      const span = status.span();
      if (equals(buf, span, RUNNING)) phase = 'Running';
      else if (equals(buf, span, SUCCEEDED)) phase = 'Succeeded';
      else return undefined;
    } else if (f === len(2)) ready = readyCondition(status.message()) || ready;
    else status.skip(f & 7);
  }
  if (phase === undefined || (phase === 'Running' && !ready)) return undefined;
  let uid: string | undefined;
  while (!meta.done) {
    const f = meta.varint();
    if (f === len(5)) uid = meta.string();
    // Being deleted: a Running pod is Terminating.
    else if (f === len(9) && phase === 'Running') return undefined;
    else meta.skip(f & 7);
  }
  return uid ? { key: uid, state: healthyState(phase) } : undefined;
}

/** A condition of type Ready whose status is True. */
function readyCondition(c: WireReader): boolean {
  let type: [number, number] | undefined;
  let status: [number, number] | undefined;
  while (!c.done) {
    const f = c.varint();
    if (f === len(1)) type = c.span();
    else if (f === len(2)) status = c.span();
    else c.skip(f & 7);
  }
  return !!type && !!status && equals(c.buf, type, READY) && equals(c.buf, status, TRUE);
}

/**
 * Reads a Kubernetes list answered in protobuf (`Accept: application/vnd.kubernetes.protobuf`)
 * as it streams in: the 4-byte `k8s\0` magic, a runtime.Unknown envelope whose `raw` field holds
 * the List message, and in it the ListMeta and one length-delimited field per item. Each item's
 * bytes go to the caller as soon as they have all arrived, so a list of 50,000 pods is never
 * held whole; the API server spends less CPU on it and sends less than half the bytes of its JSON.
 */

import { LEN, WireReader } from './wire.js';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface ProtoListMeta {
  resourceVersion?: string;
  continue?: string;
}

/** A varint at `pos` of `buf`: [value, next position], or undefined when it is not all there yet. */
function tryVarint(buf: Buffer, pos: number): [number, number] | undefined {
  let value = 0;
  let shift = 0;
  for (let p = pos; p < buf.length; p++) {
    const b = buf[p]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, p + 1];
    shift += 7;
    if (shift > 63) throw new Error('protobuf: varint longer than 10 bytes');
  }
  return undefined;
}

type Stage = 'magic' | 'envelope' | 'list' | 'after';

export class ProtoListReader {
  private stage: Stage = 'magic';
  /** Bytes received and not yet consumed. */
  private pending: Buffer = Buffer.alloc(0);
  /** Chunks waiting until `need` bytes are there (joined once, not at every chunk). */
  private parked: Buffer[] = [];
  private parkedBytes = 0;
  private need = 0;
  /** Bytes of the List message not yet consumed. */
  private listLeft = 0;
  /** Bytes of a field to pass over. */
  private skipLeft = 0;
  readonly meta: ProtoListMeta = {};

  constructor(private readonly onItem: (buf: Buffer, start: number, end: number) => void) {}

  push(chunk: Buffer): void {
    if (this.need > 0) {
      this.parked.push(chunk);
      this.parkedBytes += chunk.length;
      if (this.pending.length + this.parkedBytes < this.need) return;
      chunk = Buffer.concat([this.pending, ...this.parked]);
      this.pending = Buffer.alloc(0);
      this.parked = [];
      this.parkedBytes = 0;
    }
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const pos = this.consume(buf);
    if (this.need > 0) this.need -= pos;
    this.pending = pos < buf.length ? buf.subarray(pos) : Buffer.alloc(0);
  }

  /** The body ended: throws when the list was cut short. */
  end(): ProtoListMeta {
    if (this.stage === 'magic' || this.stage === 'envelope' || this.listLeft > 0 || this.skipLeft > 0 || this.need > 0) {
      throw new Error('protobuf: the list ended before its last item');
    }
    return this.meta;
  }

  /** Consumes what it can of `buf`; returns where it stopped (the rest waits for more bytes). */
  private consume(buf: Buffer): number {
    let pos = 0;
    this.need = 0;
    for (;;) {
      if (this.skipLeft > 0) {
        const n = Math.min(this.skipLeft, buf.length - pos);
        pos += n;
        this.skipLeft -= n;
        if (this.stage === 'list') this.listLeft -= n;
        if (this.skipLeft > 0) return pos;
      }
      if (this.stage === 'list' && this.listLeft === 0) this.stage = 'after';
      if (this.stage === 'after') {
        this.skipLeft = buf.length - pos;
        if (this.skipLeft === 0) return pos;
        continue;
      }
      const next = this.stage === 'magic' ? this.magic(buf, pos) : this.field(buf, pos);
      if (next === undefined) return pos;
      pos = next;
    }
  }

  private magic(buf: Buffer, pos: number): number | undefined {
    if (buf.length - pos < MAGIC.length) return this.wait(pos + MAGIC.length);
    if (!buf.subarray(pos, pos + MAGIC.length).equals(MAGIC)) throw new Error('protobuf: the answer is not a Kubernetes protobuf object');
    this.stage = 'envelope';
    return pos + MAGIC.length;
  }

  /** One field of the envelope or of the list; undefined when it is not all there yet. */
  private field(buf: Buffer, pos: number): number | undefined {
    const tag = tryVarint(buf, pos);
    if (!tag) return this.wait(buf.length + 1);
    const [t, afterTag] = tag;
    const field = Math.floor(t / 8);
    const wire = t & 7;
    if (wire !== 2) return this.scalar(buf, pos, afterTag, wire);
    const len = tryVarint(buf, afterTag);
    if (!len) return this.wait(buf.length + 1);
    const [n, start] = len;
    const header = start - pos;
    if (this.stage === 'envelope') {
      if (field === 2) {
        this.stage = 'list';
        this.listLeft = n;
      } else this.skipLeft = n;
      return start;
    }
    if (field !== 1 && field !== 2) {
      this.listLeft -= header;
      this.skipLeft = n;
      return start;
    }
    if (buf.length - start < n) return this.wait(start + n);
    if (field === 2) this.onItem(buf, start, start + n);
    else this.listMeta(new WireReader(buf, start, start + n));
    this.listLeft -= header + n;
    return start + n;
  }

  private scalar(buf: Buffer, pos: number, afterTag: number, wire: number): number | undefined {
    let end: number;
    if (wire === 0) {
      const v = tryVarint(buf, afterTag);
      if (!v) return this.wait(buf.length + 1);
      end = v[1];
    } else if (wire === 1 || wire === 5) {
      end = afterTag + (wire === 1 ? 8 : 4);
      if (buf.length < end) return this.wait(end);
    } else throw new Error(`protobuf: wire type ${wire} not supported`);
    if (this.stage === 'list') this.listLeft -= end - pos;
    return end;
  }

  private listMeta(r: WireReader): void {
    r.fields((f, w) => {
      if (w !== LEN || (f !== 2 && f !== 3)) return false;
      if (f === 2) this.meta.resourceVersion = r.string();
      else this.meta.continue = r.string();
      return true;
    });
  }

  /** Not enough bytes: wait until `upTo` (relative to the current buffer) are there. */
  private wait(upTo: number): undefined {
    this.need = upTo;
    return undefined;
  }
}

/**
 * The protobuf wire format, as far as reading Kubernetes objects needs it: varints, and
 * length-delimited fields (strings, bytes, nested messages) walked without copying. Fields a
 * caller does not ask for are skipped by their length, so a 2 KB Pod costs only the fields read.
 */
import { internBytes } from './intern.js';

export const VARINT = 0;
export const FIXED64 = 1;
export const LEN = 2;
export const FIXED32 = 5;

/** A message's bytes `[pos, end)` in `buf`, read field by field. */
export class WireReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** An unsigned varint (exact up to 2^53). */
  varint(): number {
    const { buf } = this;
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error('protobuf: varint past the end of the message');
      const b = buf[this.pos++]!;
      result += shift < 28 ? (b & 0x7f) << shift : (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
      if (shift > 63) throw new Error('protobuf: varint longer than 10 bytes');
    }
  }

  /** An int32 (a negative one is sent as 10 bytes: its low 32 bits are the value). */
  int32(): number {
    let low = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error('protobuf: varint past the end of the message');
      const b = this.buf[this.pos++]!;
      if (shift < 32) low |= (b & 0x7f) << shift;
      if (b < 0x80) return low | 0;
      shift += 7;
      if (shift > 63) throw new Error('protobuf: varint longer than 10 bytes');
    }
  }

  /** The next field's tag: its number and wire type. */
  tag(): { field: number; wire: number } {
    const t = this.varint();
    return { field: Math.floor(t / 8), wire: t & 7 };
  }

  /** A length-delimited field's bounds; the reader moves past it. */
  span(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    this.pos += len;
    if (this.pos > this.end) throw new Error('protobuf: field longer than its message');
    return [start, this.pos];
  }

  string(): string {
    const [a, b] = this.span();
    return this.buf.toString('utf8', a, b);
  }

  /** A string many objects repeat (a namespace, a phase, a reason): one copy kept for all. */
  shared(): string {
    const [a, b] = this.span();
    return internBytes(this.buf, a, b);
  }

  /** A nested message, read by a reader of its own. */
  message(): WireReader {
    const [a, b] = this.span();
    return new WireReader(this.buf, a, b);
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === LEN) this.span();
    else if (wire === FIXED64) this.pos += 8;
    else if (wire === FIXED32) this.pos += 4;
    else throw new Error(`protobuf: wire type ${wire} not supported`);
  }

  /** Calls `each` for every field; `each` reads the value and returns true, or returns false to have it skipped. */
  fields(each: (field: number, wire: number) => boolean | undefined): void {
    while (this.pos < this.end) {
      const { field, wire } = this.tag();
      if (!each(field, wire)) this.skip(wire);
    }
  }
}

/**
 * A metav1.Time (seconds 1, nanos 2) as a Date in whole seconds, as the API writes it in JSON
 * (the generated models' type; `toMs` reads it as it reads JSON's strings).
 */
export function readTime(r: WireReader): Date {
  let seconds = 0;
  while (!r.done) {
    const t = r.varint();
    if (t === 8) seconds = r.varint();
    else r.skip(t & 7);
  }
  return new Date(seconds * 1000);
}

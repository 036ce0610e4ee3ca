/**
 * An error answered in protobuf: the API server encodes its metav1.Status the way the request
 * asked for, so a refused protobuf list (403, 410, 500) comes as `k8s\0` + runtime.Unknown with
 * the Status in `raw`. Read into the JSON shape every error path reads (code, reason, message).
 */
import { len, varintTag } from './meta.js';
import { WireReader } from './wire.js';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface StatusJson {
  kind: 'Status';
  apiVersion: 'v1';
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
}

/** The Status in `buf`, or undefined when it is not a Kubernetes protobuf object. */
export function decodeStatus(buf: Buffer): StatusJson | undefined {
  if (buf.length < MAGIC.length || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const envelope = new WireReader(buf, MAGIC.length);
  let raw: WireReader | undefined;
  while (!envelope.done) {
    const t = envelope.varint();
    if (t === len(2)) raw = envelope.message();
    else envelope.skip(t & 7);
  }
  if (!raw) return undefined;
  const status: StatusJson = { kind: 'Status', apiVersion: 'v1' };
  while (!raw.done) {
    const t = raw.varint();
    if (t === len(2)) status.status = raw.string();
    else if (t === len(3)) status.message = raw.string();
    else if (t === len(4)) status.reason = raw.string();
    else if (t === varintTag(6)) status.code = raw.int32();
    else raw.skip(t & 7);
  }
  return status;
}

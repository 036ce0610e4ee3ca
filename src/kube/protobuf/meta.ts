/** What every Kubernetes object in protobuf shares: tags, and the ObjectMeta fields fleetdeck reads. */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { readTime, type WireReader } from './wire.js';

/** A length-delimited field's tag (`field << 3 | 2`). */
export const len = (field: number) => field * 8 + 2;
/** A varint field's tag. */
export const varintTag = (field: number) => field * 8;

/** name, namespace, uid, creation and deletion times and, when asked, the labels. */
export function readMeta(r: WireReader, withLabels = false): V1ObjectMeta {
  const m: V1ObjectMeta = {};
  while (!r.done) {
    const t = r.varint();
    if (t === len(1)) m.name = r.string();
    else if (t === len(3)) m.namespace = r.shared();
    else if (t === len(5)) m.uid = r.string();
    else if (t === len(8)) m.creationTimestamp = readTime(r.message());
    else if (t === len(9)) m.deletionTimestamp = readTime(r.message());
    else if (t === len(11) && withLabels) {
      const [key, value] = entry(r.message());
      m.labels ??= {};
      m.labels[key] = value;
    } else r.skip(t & 7);
  }
  return m;
}

/** One entry of a map<string, string>: key 1, value 2. */
function entry(r: WireReader): [string, string] {
  let key = '';
  let value = '';
  while (!r.done) {
    const t = r.varint();
    if (t === len(1)) key = r.shared();
    else if (t === len(2)) value = r.shared();
    else r.skip(t & 7);
  }
  return [key, value];
}

/**
 * A Pod's or Node's condition (the two messages share their fields): type 1, status 2, reason 5
 * and message 6; the probe and transition times are skipped.
 */
export function readCondition(r: WireReader): { type: string; status: string; reason?: string; message?: string } {
  const c: { type: string; status: string; reason?: string; message?: string } = { type: '', status: '' };
  while (!r.done) {
    const t = r.varint();
    if (t === len(1)) c.type = r.shared();
    else if (t === len(2)) c.status = r.shared();
    else if (t === len(5)) c.reason = r.shared();
    else if (t === len(6)) c.message = r.string();
    else r.skip(t & 7);
  }
  return c;
}

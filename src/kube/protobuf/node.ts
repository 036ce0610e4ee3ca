/**
 * A Node in protobuf (k8s.io/api/core/v1 generated.proto) read into the fields `summarizeNode`
 * uses: name, uid, labels, creation time, unschedulable, the Ready condition and the kubelet's
 * version. Images, addresses, volumes and the other conditions are skipped by their length.
 */
import type { V1Node, V1NodeSpec, V1NodeStatus } from '@kubernetes/client-node';
import { len, readCondition as condition, readMeta, varintTag } from './meta.js';
import { WireReader } from './wire.js';

export function decodeNode(buf: Buffer, start = 0, end = buf.length): V1Node {
  const r = new WireReader(buf, start, end);
  const node: V1Node = {};
  while (!r.done) {
    const t = r.varint();
    if (t === len(1)) node.metadata = readMeta(r.message(), true);
    else if (t === len(2)) node.spec = spec(r.message());
    else if (t === len(3)) node.status = status(r.message());
    else r.skip(t & 7);
  }
  return node;
}

function spec(r: WireReader): V1NodeSpec {
  const s: V1NodeSpec = {};
  while (!r.done) {
    const t = r.varint();
    if (t === varintTag(4)) s.unschedulable = r.varint() !== 0;
    else r.skip(t & 7);
  }
  return s;
}

function status(r: WireReader): V1NodeStatus {
  const s: V1NodeStatus = {};
  while (!r.done) {
    const t = r.varint();
    if (t === len(4)) {
      const c = condition(r.message());
      if (c.type === 'Ready') s.conditions = [c];
    } else if (t === len(7)) {
      const kubeletVersion = systemInfoKubelet(r.message());
      if (kubeletVersion) s.nodeInfo = { kubeletVersion } as V1NodeStatus['nodeInfo'];
    } else r.skip(t & 7);
  }
  return s;
}

function systemInfoKubelet(r: WireReader): string | undefined {
  let v: string | undefined;
  while (!r.done) {
    const t = r.varint();
    if (t === len(7)) v = r.shared();
    else r.skip(t & 7);
  }
  return v;
}

import type { GateView } from '../components/key-actions/index.js';
import { refusalOf, type WriteGate } from '../kube/transport/gate.js';

/** The session's write gate as the screens see it: read-only or not, and the gate's own one-line refusal of an action. */
export function gateView(gate: Pick<WriteGate, 'readOnly' | 'assertWritable'>): GateView {
  return { readOnly: gate.readOnly, refusal: (action) => refusalOf(gate, action) ?? `${action}: allowed` };
}

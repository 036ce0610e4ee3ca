import type { GateView } from '../components/key-actions/index.js';
import type { WriteGate } from '../kube/transport/gate.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The session's write gate as the screens see it: read-only or not, and the gate's own one-line refusal of an action. */
export function gateView(gate: Pick<WriteGate, 'readOnly' | 'assertWritable'>): GateView {
  return {
    readOnly: gate.readOnly,
    refusal: (action) => {
      try {
        gate.assertWritable(action);
      } catch (err) {
        return message(err);
      }
      return `${action}: allowed`;
    },
  };
}

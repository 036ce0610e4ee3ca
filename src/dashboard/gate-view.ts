import type { GateView } from '../components/key-actions/index.js';
import { assertWritable } from '../kube/transport/gate.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The write gate as the screens see it: read-only or not, and the gate's own refusal of an action. */
export function gateView(readOnly: boolean): GateView {
  return {
    readOnly,
    refusal: (action) => {
      try {
        assertWritable(action);
      } catch (err) {
        return message(err);
      }
      return `${action}: refused`;
    },
  };
}

import type { CheckItem } from '../../checklist/checklist.js';
import type { ContextState } from '../../store/types.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../kube/fleet/fleet-namespace.js';
import { forbiddenGate, gated } from './gates.js';

/** Certificates closer than this to their expiry are a warning. */
export const CERT_WARN_DAYS = 30;

const DAY_MS = 86_400_000;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function certItem(ctx: ContextState, fleet: FleetConfig, now: number, warnDays = CERT_WARN_DAYS): CheckItem {
  const id = 'nova/certificates';
  const label = 'Control plane certificates';
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  if (s.secretsForbidden) return gated(id, label, forbiddenGate(s.secretsForbidden, ctx.name), true);
  const rotate = `renew them: fleetdeck certs renew (new certificates from the existing CAs in ${fleet.hostingContext}, components restarted one at a time)`;
  if (s.certs.length === 0) {
    return {
      id,
      label,
      state: 'warn',
      detail: 'none found',
      hint: `no Secret in namespace ${s.namespace} of ${ctx.name} holds a certificate (*.crt): create them with fleetdeck install (or kubectl nova install certs)`,
    };
  }
  const sorted = [...s.certs].sort((a, b) => a.notAfter - b.notAfter);
  const first = sorted[0]!;
  const expired = sorted.filter((c) => c.notAfter <= now);
  if (expired.length > 0) {
    const more = expired.length > 1 ? ` (+${expired.length - 1} more expired)` : '';
    return {
      id,
      label,
      state: 'fail',
      detail: `${first.secret}/${first.key} (${first.subject}) expired on ${isoDate(first.notAfter)}${more}`,
      hint: rotate,
    };
  }
  const days = Math.floor((first.notAfter - now) / DAY_MS);
  if (days < warnDays) {
    const when = days === 0 ? 'in less than a day' : `in ${days} day${days === 1 ? '' : 's'}`;
    return {
      id,
      label,
      state: 'warn',
      detail: `${first.secret}/${first.key} (${first.subject}) expires ${when} (${isoDate(first.notAfter)})`,
      hint: rotate,
    };
  }
  return { id, label, state: 'ok', detail: `valid for ${days} days` };
}

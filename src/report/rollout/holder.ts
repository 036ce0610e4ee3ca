/** A rollout's holder in words, for the dashboard and `fleetdeck rollout list|watch`. */
import { formatDuration } from '../../duration.js';
import type { HolderView, OwnerLiveness } from '../../rollout/owner-liveness.js';

/** "live", "expired (not renewed for 2m)", "dead (pid 123 gone)". */
export function livenessText(l: OwnerLiveness): string {
  if (l.state === 'live') return 'live';
  if (l.state === 'dead') return `dead (${l.reason})`;
  return Number.isFinite(l.renewAgeMs) ? `expired (not renewed for ${formatDuration(l.renewAgeMs, 'span')})` : 'expired (never renewed)';
}

/** "pod/x (live, lease renewed 4 s ago)" style text of a view. */
export function holderText(v: HolderView): string {
  return `${v.holder} ${livenessText(v.liveness)}`;
}

/** The liveness of a holder seen earlier, with its renewal's age at `now` (its state stays as it was judged). */
export function livenessAt(v: HolderView, now: number): OwnerLiveness {
  if (v.liveness.state === 'dead') return v.liveness;
  const renewed = Date.parse(v.renewTime ?? '');
  return { state: v.liveness.state, renewAgeMs: Number.isFinite(renewed) ? Math.max(0, now - renewed) : Infinity };
}

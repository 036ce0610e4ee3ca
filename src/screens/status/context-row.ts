import type { CellPart } from '../../components/table/index.js';
import { clock, statusRow, type StatusRow } from '../../store/selectors.js';
import type { ContextState } from '../../store/types.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import { contextRoles, roleLabel } from './fleet/fleet-roles.js';

/** A row of the contexts table: the status row, the fleet role, pods and warnings. */
export interface ContextRow extends StatusRow {
  /** "hosting", "control", "workload"; "-" outside the fleet. */
  role: string;
  /** "142" then ", 3 bad" in the warning color; "-" before the first list; "denied" when listing is forbidden. */
  pods: CellPart[];
  /** How many recent Warning events; "-" before the first list; "denied". */
  warn: string;
  warnTone?: 'warn' | undefined;
}

/** A list the user may not make, in a word that leaves room for the other columns (the detail names the permission). */
const DENIED = 'denied';

function podsCell(ctx: ContextState): CellPart[] {
  const { pods } = ctx;
  if (pods.forbidden !== undefined) return [{ text: DENIED, color: 'warn' }];
  if (!pods.synced) return [{ text: '-' }];
  const parts: CellPart[] = [{ text: String(pods.total) }];
  if (pods.problemCount > 0) parts.push({ text: `, ${pods.problemCount} bad`, color: 'warn' });
  return parts;
}

/**
 * The status row with STATUS kept short ("unreachable", at most 11 columns): since
 * when and why go to the line under the row, where they have the whole width.
 */
export function contextRow(ctx: ContextState, fleet: FleetConfig | undefined): ContextRow {
  const { events } = ctx;
  const base = statusRow(ctx);
  if (ctx.reachability === 'unreachable') {
    const since = ctx.unreachableSince !== undefined ? `since ${clock(ctx.unreachableSince)}` : undefined;
    const reason = [since, ctx.lastError].filter((s): s is string => s !== undefined).join(': ');
    base.status = 'unreachable';
    if (reason) base.reason = reason;
  } else if (base.notReady) {
    base.status = 'not ready';
    base.reason = ctx.notReadySince !== undefined ? `since ${clock(ctx.notReadySince)}: ${ctx.notReady}` : ctx.notReady;
  }
  if (ctx.nodes.forbidden !== undefined) base.nodes = DENIED;
  const warn = events.forbidden !== undefined ? DENIED : events.synced ? String(events.warnings.length) : '-';
  const warnTone = events.forbidden !== undefined || (events.synced && events.warnings.length > 0) ? 'warn' : undefined;
  return { ...base, role: roleLabel(contextRoles(fleet, ctx.name)), pods: podsCell(ctx), warn, warnTone };
}

/** `fleetdeck rollout list`: the rollouts recorded in a cluster, as rows (JSON) or a table. */
import { toAscii } from '../../checklist/checklist.js';
import { formatDuration } from '../../duration.js';
import { livenessText } from '../../report/rollout/holder.js';
import { parseHolder, type LeaseTimes } from '../../rollout/owner-liveness.js';
import { holderView } from '../../rollout/ownership.js';
import type { RolloutState } from '../../rollout/types.js';
import type { RolloutHold } from '../../rollout/guards/types.js';

/** Who holds a rollout's Lease (or, for a record written before the Lease, its owner's heartbeat). */
export interface OwnerRow {
  /** The Lease's holderIdentity: `host/pid` or `pod/NAME`. */
  holder: string;
  host: string | null;
  pid: number | null;
  pod: string | null;
  /** The latest renewal (or heartbeat), ISO. */
  renewTime: string | null;
  /** `live` only while the Lease is renewed and, on this host, its process is a running fleetdeck. */
  live: boolean;
  state: 'live' | 'expired' | 'dead';
  detail: string;
}

export interface RolloutRow {
  /** The context the rollout was read in. */
  context: string;
  name: string;
  phase: string;
  done: number;
  failed: number;
  /** Nodes skipped (their drain timed out and the spec said skip). */
  skipped: number;
  total: number;
  replace: string;
  message: string | null;
  /** What holds the running rollout before its next node; null when nothing does. */
  hold: RolloutHold | null;
  owner: OwnerRow | null;
  createdAt: string | null;
  updatedAt: string;
}

function ownerRow(state: RolloutState, lease: LeaseTimes | undefined, now: number): OwnerRow | null {
  const v = holderView(lease, state, now);
  if (!v) return null;
  const h = parseHolder(v.holder);
  return {
    holder: v.holder,
    host: h.kind === 'process' ? h.host : null,
    pid: h.kind === 'process' ? h.pid : null,
    pod: h.kind === 'pod' ? h.pod : null,
    renewTime: v.renewTime ?? null,
    live: v.liveness.state === 'live',
    state: v.liveness.state,
    detail: livenessText(v.liveness),
  };
}

/** The rows of the rollouts, each with its holder from `leases` (by rollout name). */
export function rolloutRows(
  context: string,
  states: readonly RolloutState[],
  leases: ReadonlyMap<string, LeaseTimes>,
  now: number,
): RolloutRow[] {
  return states.map((s) => ({
    context,
    name: s.spec.name,
    phase: s.phase,
    done: s.nodes.filter((n) => n.phase === 'done').length,
    failed: s.nodes.filter((n) => n.phase === 'failed').length,
    skipped: s.nodes.filter((n) => n.phase === 'skipped').length,
    total: s.nodes.length,
    replace: s.spec.replace,
    message: s.message ?? null,
    hold: s.phase === 'Running' ? (s.hold ?? null) : null,
    owner: ownerRow(s, leases.get(s.spec.name), now),
    createdAt: s.log[0]?.time ?? null,
    updatedAt: s.updatedAt,
  }));
}

/**
 * The table: NAME PHASE NODES REPLACE OWNER UPDATED MESSAGE (CONTEXT first when the rows come
 * from several contexts), columns padded, the last one not.
 */
export function rolloutTable(rows: readonly RolloutRow[], now: number, ascii: boolean, withContext = false): string[] {
  const table = [
    [...(withContext ? ['CONTEXT'] : []), 'NAME', 'PHASE', 'NODES', 'REPLACE', 'OWNER', 'UPDATED', 'MESSAGE'],
    ...rows.map((r) => [
      ...(withContext ? [r.context] : []),
      r.name,
      r.phase,
      `${r.done}/${r.total}${r.failed ? ` (${r.failed} failed)` : ''}${r.skipped ? ` (${r.skipped} skipped)` : ''}`,
      r.replace,
      r.owner ? `${r.owner.holder} ${r.owner.detail}` : '-',
      `${formatDuration(now - Date.parse(r.updatedAt), 'span')} ago`,
      r.hold ? `held: ${r.hold.reason}` : (r.message ?? ''),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => {
    const line = row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
    return ascii ? toAscii(line) : line;
  });
}

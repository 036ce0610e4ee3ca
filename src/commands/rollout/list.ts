/** `fleetdeck rollout list`: the rollouts recorded in a cluster, as rows (JSON) or a table. */
import { formatElapsed, toAscii } from '../../checklist/checklist.js';
import { livenessText, ownerLiveness } from '../../rollout/owner-liveness.js';
import type { RolloutOwner, RolloutState } from '../../rollout/types.js';

export interface RolloutRow {
  name: string;
  phase: string;
  done: number;
  failed: number;
  total: number;
  replace: string;
  message: string | null;
  /** `live` only while its heartbeat is fresh and, on this host, its process is a running fleetdeck. */
  owner: { host: string; pid: number; heartbeat: string; live: boolean; state: 'live' | 'stale' | 'dead'; detail: string } | null;
  createdAt: string | null;
  updatedAt: string;
}

function ownerRow(owner: RolloutOwner, now: number): NonNullable<RolloutRow['owner']> {
  const l = ownerLiveness(owner, now);
  return { ...owner, live: l.state === 'live', state: l.state, detail: livenessText(l) };
}

export function rolloutRows(states: readonly RolloutState[], now: number): RolloutRow[] {
  return states.map((s) => ({
    name: s.spec.name,
    phase: s.phase,
    done: s.nodes.filter((n) => n.phase === 'done').length,
    failed: s.nodes.filter((n) => n.phase === 'failed').length,
    total: s.nodes.length,
    replace: s.spec.replace,
    message: s.message ?? null,
    owner: s.owner ? ownerRow(s.owner, now) : null,
    createdAt: s.log[0]?.time ?? null,
    updatedAt: s.updatedAt,
  }));
}

/** The table: NAME PHASE NODES REPLACE OWNER UPDATED MESSAGE, columns padded, the last one not. */
export function rolloutTable(rows: readonly RolloutRow[], now: number, ascii: boolean): string[] {
  const table = [
    ['NAME', 'PHASE', 'NODES', 'REPLACE', 'OWNER', 'UPDATED', 'MESSAGE'],
    ...rows.map((r) => [
      r.name,
      r.phase,
      `${r.done}/${r.total}${r.failed ? ` (${r.failed} failed)` : ''}`,
      r.replace,
      r.owner ? `pid ${r.owner.pid}@${r.owner.host} ${r.owner.detail}` : '-',
      `${formatElapsed(Math.max(0, now - Date.parse(r.updatedAt)), { coarse: true })} ago`,
      r.message ?? '',
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
